import type { PublicUser } from '@mesmer/shared/api/users';
import { levelForPoints } from '@mesmer/shared/domain/levels';
import { PAGE_SIZES } from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import Markdown from 'react-markdown';
import { Navigate, useParams } from 'react-router';
import styles from '../../components/library.module.css';
import { PlaylistList } from '../../components/PlaylistList.tsx';
import { ApiError } from '../../lib/api-client.ts';
import {
  Avatar,
  Card,
  ErrorState,
  LoadingState,
  Pagination,
  SectionHeader,
  StreakBadge,
  usePageTitle,
} from '../../ui/index.ts';
import { playlistsQuery } from '../playlists/api.ts';
import { userByNameQuery } from './api.ts';
import page from './users.module.css';

/** /user/{username}: the profile and that user's public playlists; no such user goes to /404. */
export default function UserPage() {
  const { username = '' } = useParams();
  const user = useQuery(userByNameQuery(username));
  usePageTitle(user.data?.username ?? username);

  if (user.isPending) return <LoadingState label="Loading profile" />;
  if (user.isError) {
    if (user.error instanceof ApiError && [400, 404].includes(user.error.status)) {
      return <Navigate to="/404" replace />;
    }
    return <ErrorState message="The profile could not be loaded." onRetry={user.refetch} />;
  }
  if (!user.data) return <Navigate to="/404" replace />;
  return (
    <div className={styles.columnsWide}>
      <ProfileCard user={user.data} />
      <UserPlaylists userId={user.data.id} />
    </div>
  );
}

const memberSince = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric' });

function ProfileCard({ user }: { user: PublicUser }) {
  const badges = user.roles.filter((r) => r.showBadge);
  return (
    <Card className={page.profile}>
      <div className={page.head}>
        <Avatar name={user.username} imageURL={user.imageURL} size={80} />
        <div className={page.name}>
          <h1>{user.username}</h1>
          <p className="muted">Member since {memberSince.format(new Date(user.createdAt))}</p>
        </div>
      </div>
      {(badges.length > 0 || user.streak > 1) && (
        <ul className={page.badges} aria-label="Badges">
          {badges.map((role) => (
            <li key={role.name}>
              <span
                className={page.roleBadge}
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
      <dl className={page.stats}>
        <div>
          <dt>Level</dt>
          <dd>{levelForPoints(user.points)}</dd>
        </div>
        <div>
          <dt>Points</dt>
          <dd>{user.points.toLocaleString('en')}</dd>
        </div>
      </dl>
      <section className={page.bio} aria-label="Biography">
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
          <p className="muted">No biography yet.</p>
        )}
      </section>
    </Card>
  );
}

function UserPlaylists({ userId }: { userId: number }) {
  const [pageOffset, setPageOffset] = useState(0);
  const list = useQuery(
    playlistsQuery({
      user: userId,
      isPublic: true,
      sort: 'datecreated',
      sortDir: 'desc',
      simple: true,
      pageSize: PAGE_SIZES.userPlaylists,
      pageOffset,
    }),
  );
  return (
    <Card>
      <SectionHeader title="Playlists" />
      {list.isError ? (
        <ErrorState message="The playlists could not be loaded." onRetry={list.refetch} />
      ) : (
        <>
          <PlaylistList
            label="Public playlists"
            playlists={list.data?.playlists}
            emptyText="This user has not created any playlists yet."
          />
          <Pagination
            pageOffset={pageOffset}
            pageSize={PAGE_SIZES.userPlaylists}
            totalItems={list.data?.totalItems ?? 0}
            onChange={setPageOffset}
          />
        </>
      )}
    </Card>
  );
}
