import { Menu, Moon, Sun, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useCurrentUser } from '../features/auth/api.ts';
import styles from './layout.module.css';
import { toggleTheme, useLightTheme } from './theme.ts';

const WIKI_URL = (import.meta.env.VITE_WIKI_URL as string | undefined) ?? 'https://wiki.mesmer.local';

const NAV = [
  { to: '/', label: 'Home' },
  { to: '/account', label: 'Account' },
  { to: '/playlists', label: 'Playlists' },
  { to: '/files', label: 'Files' },
  { to: '/triggers', label: 'Triggers' },
  { to: '/plans', label: 'Training Plans' },
  { to: '/messages', label: 'Messages', loggedIn: true },
  { to: '/playlist/generate', label: 'Generate Playlist' },
  { to: '/leaderboard', label: 'Leaderboard' },
  { href: WIKI_URL, label: 'Wiki' },
  { to: '/about', label: 'About' },
] as const;

export function Header() {
  const light = useLightTheme();
  const { user } = useCurrentUser();
  const [open, setOpen] = useState(false);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu after navigating
  useEffect(() => setOpen(false), [location.pathname]);

  const toggleMenu = () => {
    // A short buzz on devices that can.
    navigator.vibrate?.(10);
    setOpen((o) => !o);
  };

  return (
    <header className={styles.header}>
      <div className={styles.headerInner}>
        <Link to="/" className={styles.logo} aria-label="Mesmer home">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Mesmer</span>
        </Link>
        <div className={styles.headerActions}>
          <button
            type="button"
            className="icon-btn"
            onClick={toggleTheme}
            aria-label={light ? 'Switch to dark theme' : 'Switch to light theme'}
          >
            {light ? <Moon size={20} /> : <Sun size={20} />}
          </button>
          <button
            type="button"
            className="icon-btn"
            onClick={toggleMenu}
            aria-expanded={open}
            aria-controls="main-menu"
            aria-label={open ? 'Close menu' : 'Open menu'}
          >
            {open ? <X size={22} /> : <Menu size={22} />}
          </button>
        </div>
      </div>
      <nav
        id="main-menu"
        className={open ? `${styles.menu} ${styles.menuOpen}` : styles.menu}
        aria-label="Main"
      >
        <ul>
          {NAV.filter((item) => !('loggedIn' in item) || user).map((item) => (
            <li key={item.label}>
              {'href' in item ? (
                <a href={item.href} target="_blank" rel="noreferrer">
                  {item.label}
                </a>
              ) : (
                <NavLink to={item.to} end={item.to === '/'}>
                  {item.label}
                </NavLink>
              )}
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
