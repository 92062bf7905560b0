import type { PublicUser } from '@mesmer/shared/api/users';
import type { ReactNode } from 'react';
import Markdown from 'react-markdown';
import { Avatar, Card, StreakBadge } from '../ui/index.ts';
import styles from './ProfileCard.module.css';

const memberSince = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });

export interface ProfileStat {
  label: string;
  value: ReactNode;
}

/**
 * A user's profile card: avatar, name, member since, role and streak badges, two stats and the
 * biography (markdown without HTML; links open in a new tab). The own profile adds its extras as children.
 */
export function ProfileCard({
  user,
  heading: Heading,
  avatarSize,
  stats,
  emptyBiography,
  className,
  children,
}: {
  user: PublicUser;
  /** The name's heading level: h1 where the card is the page, h2 inside a larger page. */
  heading: 'h1' | 'h2';
  avatarSize: number;
  stats: readonly ProfileStat[];
  emptyBiography: string;
  className?: string;
  children?: ReactNode;
}) {
  const badges = user.roles.filter((r) => r.showBadge);
  return (
    <Card className={className ? `${styles.card} ${className}` : styles.card}>
      <div className={styles.head}>
        <Avatar name={user.username} imageURL={user.imageURL} size={avatarSize} />
        <div className={styles.name}>
          <Heading>{user.username}</Heading>
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
        {stats.map((stat) => (
          <div key={stat.label}>
            <dt>{stat.label}</dt>
            <dd>{stat.value}</dd>
          </div>
        ))}
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
          <p className="muted">{emptyBiography}</p>
        )}
      </section>

      {children}
    </Card>
  );
}
