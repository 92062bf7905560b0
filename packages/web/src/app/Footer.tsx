import { Link } from 'react-router';
import { SITE_NAME, WIKI_URL } from '../lib/site.ts';
import styles from './layout.module.css';

export function Footer() {
  return (
    <footer className={styles.footer}>
      <div className={styles.footerInner}>
        <span className="muted">
          © {new Date().getFullYear()} {SITE_NAME} · For listeners 18+
        </span>
        <nav aria-label="Footer" className={styles.footerLinks}>
          <Link to="/about">About</Link>
          <Link to="/policy/privacy">Privacy Policy</Link>
          <Link to="/policy/cookies">Cookie Policy</Link>
          <a href={WIKI_URL} target="_blank" rel="noreferrer">
            Wiki
          </a>
        </nav>
      </div>
    </footer>
  );
}
