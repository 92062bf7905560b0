import { Info, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PATREON_SECTION_ID } from '../../lib/site.ts';
import styles from './home.module.css';

/** Dated, so a later notice gets a fresh key and shows again even to people who closed this one. */
const RELINK_NOTICE_KEY = 'relinkNotice-2026-11';

/** A dismissible note asking members to re-link their Patreon account (only where linking is configured); closing it hides it for good. */
export function RelinkNotice() {
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(RELINK_NOTICE_KEY) === 'true');
  if (dismissed) return null;
  const dismiss = () => {
    localStorage.setItem(RELINK_NOTICE_KEY, 'true');
    setDismissed(true);
  };
  return (
    <aside className={styles.notice} aria-label="Membership notice">
      <Info size={20} className={styles.noticeIcon} aria-hidden />
      <p>
        Patreon files not unlocking? Our membership link was renewed: re-link your Patreon account on the{' '}
        <Link to={`/account#${PATREON_SECTION_ID}`}>Account page</Link> to keep access.
      </p>
      <button type="button" className="icon-btn" aria-label="Dismiss notice" onClick={dismiss}>
        <X size={18} />
      </button>
    </aside>
  );
}
