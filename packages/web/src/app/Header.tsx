import { canModerate } from '@mesmer/shared/domain/moderation';
import { canManageRoles, canUpload } from '@mesmer/shared/domain/permissions';
import {
  BookOpen,
  CalendarCheck,
  CalendarDays,
  ChartColumn,
  ExternalLink,
  FileAudio,
  Gauge,
  House,
  Info,
  ListMusic,
  Menu,
  MessageCircle,
  Moon,
  ShieldCheck,
  Sparkles,
  Sun,
  Trophy,
  User,
  WandSparkles,
  X,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
// The icon itself, in the script: the header paints without a request of its own.
import logo from '../../public/favicon.svg?inline';
import { useCurrentUser } from '../api/auth.ts';
import { SITE_NAME, WIKI_URL } from '../lib/site.ts';
import { Avatar } from '../ui/index.ts';
import styles from './layout.module.css';
import { toggleTheme, useLightTheme } from './theme.ts';

const NAV = [
  { to: '/', label: 'Home', icon: House },
  { to: '/account', label: 'Account', icon: User },
  { to: '/playlists', label: 'Playlists', icon: ListMusic },
  { to: '/files', label: 'Files', icon: FileAudio },
  { to: '/triggers', label: 'Triggers', icon: Sparkles },
  { to: '/plans', label: 'Training Plans', icon: CalendarCheck },
  { to: '/messages', label: 'Messages', icon: MessageCircle, loggedIn: true },
  { to: '/playlist/generate', label: 'Generate Playlist', icon: WandSparkles },
  { to: '/leaderboard', label: 'Leaderboard', icon: Trophy },
  { to: '/insights/listening', label: 'Your listening', icon: CalendarDays, loggedIn: true },
  { to: '/insights', label: 'Creator insights', icon: ChartColumn, uploaders: true },
  { to: '/moderation', label: 'Moderation', icon: ShieldCheck, moderators: true },
  { to: '/insights/site', label: 'Site dashboard', icon: Gauge, administrators: true },
  { href: WIKI_URL, label: 'Wiki', icon: BookOpen },
  { to: '/about', label: 'About', icon: Info },
] as const;

export function Header() {
  const light = useLightTheme();
  const { user } = useCurrentUser();
  const [open, setOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu after navigating
  useEffect(() => setOpen(false), [location.pathname]);

  // An open menu closes on Escape or a click anywhere outside the header.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    const onPointer = (e: PointerEvent) => {
      if (!headerRef.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  const toggleMenu = () => {
    // A short buzz on devices that can.
    navigator.vibrate?.(10);
    setOpen((o) => !o);
  };

  return (
    <header ref={headerRef} className={styles.header}>
      <div className={styles.headerInner}>
        <Link to="/" className={styles.logo} aria-label={`${SITE_NAME} home`}>
          <img src={logo} alt="" width={30} height={30} />
          <span>{SITE_NAME}</span>
        </Link>
        <div className={styles.headerActions}>
          <AccountArea />
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
          {NAV.filter(
            (item) =>
              (!('loggedIn' in item) || user) &&
              (!('moderators' in item) || canModerate(user && { roles: user.roles.map((r) => r.name) })) &&
              (!('uploaders' in item) || canUpload(user && { roles: user.roles.map((r) => r.name) })) &&
              (!('administrators' in item) ||
                canManageRoles(user && { roles: user.roles.map((r) => r.name) })),
          ).map((item) => (
            <li key={item.label}>
              {'href' in item ? (
                <a href={item.href} target="_blank" rel="noreferrer">
                  <item.icon size={18} aria-hidden />
                  {item.label}
                  <ExternalLink size={14} aria-hidden className={styles.externalIcon} />
                </a>
              ) : (
                <NavLink to={item.to} end={item.to === '/' || item.to === '/insights'}>
                  <item.icon size={18} aria-hidden />
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

/** Signed in: the user's avatar and name, linking to /account. Signed out: Log in and Sign up. */
function AccountArea() {
  const { user, isLoaded } = useCurrentUser();
  // Nothing until the session is known, so a signed-in user never sees the buttons flash.
  if (!isLoaded) return null;
  if (user) {
    return (
      <Link to="/account" className={styles.accountLink} aria-label={`Account (${user.username})`}>
        <Avatar name={user.username} imageURL={user.imageURL} size={30} />
        <span className={styles.accountName}>{user.username}</span>
      </Link>
    );
  }
  return (
    <div className={styles.authButtons}>
      <Link to="/login" className="btn btn-ghost btn-small">
        Log in
      </Link>
      <Link to="/signup" className="btn btn-primary btn-small">
        Sign up
      </Link>
    </div>
  );
}
