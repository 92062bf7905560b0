import { Link } from 'react-router';
import { Card } from '../../ui/index.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import styles from './pages.module.css';

export default function NotFoundPage() {
  usePageTitle('Not Found', '/404');
  return (
    <Card className={styles.notFound}>
      <div className={styles.notFoundArt} aria-hidden>
        404
      </div>
      <h1>Oopsies! (404)</h1>
      <p className="muted">This page drifted off somewhere. Let's bring you back to something familiar.</p>
      <Link to="/" className="btn btn-primary">
        Go Home
      </Link>
    </Card>
  );
}
