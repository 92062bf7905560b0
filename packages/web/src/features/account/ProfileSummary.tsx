import type { SelfUser } from '@mesmer/shared/api/users';
import { LogOut } from 'lucide-react';
import Markdown from 'react-markdown';
import { Avatar, Card, Spinner, StreakBadge, Tag } from '../../ui/index.ts';
import styles from './account.module.css';

const memberSince = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });

/** The signed-in user's own profile at a glance, with the Log out button. */
export function ProfileSummary({
  user,
  onLogout,
  loggingOut,
}: {
  user: SelfUser;
  onLogout: () => void;
  loggingOut: boolean;
}) {
  const badges = user.roles.filter((r) => r.showBadge);
  return (
    <Card className={styles.profile}>
      <div className={styles.profileHead}>
        <Avatar name={user.username} imageURL={user.imageURL} size={76} />
        <div className={styles.profileName}>
          <h2>{user.username}</h2>
          <p className="muted">Member since {memberSince.format(new Date(user.createdAt))}</p>
        </div>
      </div>

      {(badges.length > 0 || user.streak > 1) && (
        <ul className={styles.badges} aria-label="Badges">
          {badges.map((role) => (
            <li key={role.name}>
              <span
                className={styles.roleBadge}
                style={{ background: role.background || undefined, color: role.textColor || undefined }}
              >
                {role.name}
              </span>
            </li>
          ))}
          {user.streak > 1 && (
            <li>
              <StreakBadge days={user.streak} />
            </li>
          )}
        </ul>
      )}

      <dl className={styles.stats}>
        <div>
          <dt>Points</dt>
          <dd>{user.points.toLocaleString('en')}</dd>
        </div>
        <div>
          <dt>Day streak</dt>
          <dd>{user.streak}</dd>
        </div>
      </dl>

      <section className={styles.bio} aria-label="Biography">
        {user.biography.trim() ? (
          <Markdown
            skipHtml
            components={{
              a: ({ href, children }) => (
                <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc">
                  {children}
                </a>
              ),
            }}
          >
            {user.biography}
          </Markdown>
        ) : (
          <p className="muted">No biography yet. It will show here and on your public profile.</p>
        )}
      </section>

      <div className={styles.email}>
        <span className={styles.emailAddress}>{user.email}</span>
        {user.emailVerified ? <Tag tone="success">Verified</Tag> : <Tag tone="warning">Not verified</Tag>}
      </div>
      {!user.emailVerified && (
        <p className={`muted ${styles.small}`}>
          Open the link in the e-mail we sent you to verify your account.
        </p>
      )}

      <button
        type="button"
        className={`btn btn-ghost ${styles.logout}`}
        onClick={onLogout}
        disabled={loggingOut}
      >
        {loggingOut ? <Spinner size={16} label="Logging out" /> : <LogOut size={18} aria-hidden />}
        Log out
      </button>
    </Card>
  );
}
