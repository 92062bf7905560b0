import { levelForPoints } from '@mesmer/shared/domain/levels';
import { PAGE_SIZES } from '@mesmer/shared/domain/library-display';
import { withThousands } from '@mesmer/shared/domain/number-format';
import { canManageRoles, canUpload } from '@mesmer/shared/domain/permissions';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { useCurrentUser } from '../../api/auth.ts';
import { playlistsQuery } from '../../api/playlists.ts';
import { userByNameQuery } from '../../api/users.ts';
import { ApiError } from '../../lib/api-client.ts';
import styles from '../../library/library.module.css';
import { PagedPlaylistList } from '../../library/PlaylistList.tsx';
import { Card, ErrorState, LoadingState, SectionHeader, usePageTitle } from '../../ui/index.ts';
import { OwnProfile } from './OwnProfile.tsx';
import { ProfileActions } from './ProfileActions.tsx';
import { ProfileCard } from './ProfileCard.tsx';
import { RoleManager } from './RoleManager.tsx';

/** /user/{username}: the profile and that user's public playlists; no such user goes to /404. */
export default function UserPage() {
  const { username = '' } = useParams();
  const user = useQuery(userByNameQuery(username));
  const { user: me } = useCurrentUser();
  const managesRoles = !!me && canManageRoles({ roles: me.roles.map((r) => r.name) });
  usePageTitle(user.data?.username ?? username);

  if (user.isPending) return <LoadingState label="Loading profile" />;
  if (user.isError) {
    if (user.error instanceof ApiError && [400, 404].includes(user.error.status)) {
      return <Navigate to="/404" replace />;
    }
    return <ErrorState message="The profile could not be loaded." onRetry={user.refetch} />;
  }
  if (!user.data) return <Navigate to="/404" replace />;
  const stats = [
    { label: 'Level', value: levelForPoints(user.data.points) },
    { label: 'Points', value: withThousands(user.data.points) },
  ];
  const roles = managesRoles && <RoleManager user={user.data} username={username} />;
  const own = me?.id === user.data.id;
  // Insights: your own listening and catalogue; administrators see anyone's catalogue.
  const creatorInsights = managesRoles || (own && canUpload({ roles: user.data.roles.map((r) => r.name) }));
  const insights = (own || creatorInsights) && (
    <p>
      {own && <Link to="/insights/listening">Your listening</Link>}
      {own && creatorInsights && ' · '}
      {creatorInsights && (
        <Link to={own ? '/insights' : `/insights/creator/${user.data.id}`}>Creator insights</Link>
      )}
    </p>
  );

  return (
    <div className={styles.columnsWide}>
      {own ? (
        <OwnProfile user={user.data} heading="h1" avatarSize={80} stats={stats}>
          {insights}
          {roles}
        </OwnProfile>
      ) : (
        <ProfileCard
          user={user.data}
          heading="h1"
          avatarSize={80}
          stats={stats}
          emptyBiography="No biography yet."
        >
          {me && <ProfileActions userId={user.data.id} />}
          {insights}
          {roles}
        </ProfileCard>
      )}
      <UserPlaylists userId={user.data.id} />
    </div>
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
      <PagedPlaylistList
        list={list}
        label="Public playlists"
        emptyText="This user has not created any playlists yet."
        pageOffset={pageOffset}
        pageSize={PAGE_SIZES.userPlaylists}
        onPageChange={setPageOffset}
      />
    </Card>
  );
}
