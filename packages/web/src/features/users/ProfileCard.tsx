import type { PublicUser } from '@mesmer/shared/api/users';
import { monthYear } from '@mesmer/shared/domain/number-format';
import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { Avatar, Card, StreakBadge } from '../../ui/index.ts';
import styles from './ProfileCard.module.css';

function parseUrl(url: string | undefined): URL | null {
  if (!url) return null;
  try {
    return new URL(url, window.location.href);
  } catch {
    return null;
  }
}

/** A biography link goes out only over http(s) or mailto; anything else (javascript:, data:) stays text. */
function BiographyLink({ href, children }: { href?: string; children?: ReactNode }) {
  const protocol = parseUrl(href)?.protocol;
  if (protocol !== 'http:' && protocol !== 'https:' && protocol !== 'mailto:') return <>{children}</>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow ugc">
      {children}
    </a>
  );
}

/**
 * Images come only from this site (uploads under /media): a remote one would tell its host the
 * address of everyone who views the profile, so it is shown as a link to the image instead.
 */
function BiographyImage({ src, alt }: { src?: string; alt?: string }) {
  if (parseUrl(src)?.origin === window.location.origin) return <img src={src} alt={alt ?? ''} />;
  return <BiographyLink href={src}>{alt || src}</BiographyLink>;
}

const biographyElements: Components = {
  a: ({ href, children }) => <BiographyLink href={href}>{children}</BiographyLink>,
  img: ({ src, alt }) => <BiographyImage src={typeof src === 'string' ? src : undefined} alt={alt} />,
};

export interface ProfileStat {
  label: string;
  value: ReactNode;
}

/**
 * A user's profile card: avatar, name, member since, role and streak badges, two stats and the
 * biography (markdown without HTML; links open in a new tab, images only from this site). The own
 * profile adds its extras as children.
 */
export function ProfileCard({
  user,
  heading: Heading,
  avatarSize,
  stats,
  emptyBiography,
  className,
  headAction,
  biographyEditor,
  children,
}: {
  user: PublicUser;
  /** The name's heading level: h1 where the card is the page, h2 inside a larger page. */
  heading: 'h1' | 'h2';
  avatarSize: number;
  stats: readonly ProfileStat[];
  emptyBiography: string;
  className?: string;
  /** Shown at the end of the head row (the own profile's edit icon). */
  headAction?: ReactNode;
  /** In edit mode, shown instead of the biography. */
  biographyEditor?: ReactNode;
  children?: ReactNode;
}) {
  const badges = user.roles.filter((r) => r.showBadge);
  return (
    <Card className={className ? `${styles.card} ${className}` : styles.card}>
      <div className={styles.head}>
        <Avatar name={user.username} imageURL={user.imageURL} size={avatarSize} />
        <div className={styles.name}>
          <Heading>{user.username}</Heading>
          <p className="muted">Member since {monthYear(new Date(user.createdAt))}</p>
        </div>
        {headAction}
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
        {biographyEditor ??
          (user.biography.trim() ? (
            <Markdown skipHtml urlTransform={(url) => url} components={biographyElements}>
              {user.biography}
            </Markdown>
          ) : (
            <p className="muted">{emptyBiography}</p>
          ))}
      </section>

      {children}
    </Card>
  );
}
