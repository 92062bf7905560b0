import type { SelfUser } from '@mesmer/shared/api/users';
import { PAGE_SIZES } from '@mesmer/shared/domain/library-display';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useCurrentUser } from '../../api/auth.ts';
import { type PlaylistsParams, playlistsQuery } from '../../api/playlists.ts';
import { useFeatureSlots } from '../../library/feature-slots.tsx';
import { PagedPlaylistList } from '../../library/PlaylistList.tsx';
import { Card, EmptyState, SectionHeader, type TabItem, Tabs } from '../../ui/index.ts';

type Tab = 'mine' | 'favorites' | 'liked';

const TABS: readonly TabItem<Tab>[] = [
  { id: 'mine', label: 'Mine' },
  { id: 'favorites', label: 'Favorites' },
  { id: 'liked', label: 'Liked' },
];

const EMPTY: Record<Tab, string> = {
  mine: "You don't have any playlists yet!",
  favorites: "You haven't favorited any playlists yet!",
  liked: "You haven't liked any playlists yet!",
};

function tabParams(tab: Tab, user: SelfUser, pageOffset: number): PlaylistsParams {
  const paging = { simple: true, pageSize: PAGE_SIZES.userPlaylists, pageOffset };
  if (tab === 'mine') return { user: user.id, sort: 'datecreated', sortDir: 'desc', ...paging };
  return {
    [tab === 'favorites' ? 'favorited' : 'liked']: true,
    sort: 'datecreated',
    sortDir: 'desc',
    ...paging,
  };
}

/**
 * My Playlists with the tabs Mine, Favorites and Liked. Favorites and Liked load the
 * first time they are chosen and stay cached; the tab bar shows once Mine has loaded.
 */
export function MyPlaylistsCard() {
  const { CreatePlaylistPopup } = useFeatureSlots();
  const { user, isVisitor } = useCurrentUser();
  const [creating, setCreating] = useState(false);
  return (
    <Card>
      <SectionHeader
        title="My Playlists"
        actions={
          user && (
            <button
              type="button"
              className="btn btn-primary btn-small"
              onClick={() => setCreating(true)}
              aria-label="Create playlist"
            >
              <Plus size={16} aria-hidden /> New
            </button>
          )
        }
      />
      {user ? (
        <SignedInPlaylists user={user} />
      ) : isVisitor ? (
        <EmptyState>Create an account to start creating playlists!</EmptyState>
      ) : null}
      <CreatePlaylistPopup open={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}

function SignedInPlaylists({ user }: { user: SelfUser }) {
  const [tab, setTab] = useState<Tab>('mine');
  const [offsets, setOffsets] = useState<Record<Tab, number>>({ mine: 0, favorites: 0, liked: 0 });
  const [visited, setVisited] = useState<Set<Tab>>(new Set(['mine']));

  const lists = {
    mine: useQuery(playlistsQuery(tabParams('mine', user, offsets.mine))),
    favorites: useQuery(
      playlistsQuery(tabParams('favorites', user, offsets.favorites), { enabled: visited.has('favorites') }),
    ),
    liked: useQuery(
      playlistsQuery(tabParams('liked', user, offsets.liked), { enabled: visited.has('liked') }),
    ),
  };
  const current = lists[tab];

  const choose = (next: Tab) => {
    setTab(next);
    setVisited((v) => new Set(v).add(next));
  };

  return (
    <>
      {lists.mine.isSuccess && <Tabs tabs={TABS} value={tab} onChange={choose} label="Playlist lists" />}
      <div role="tabpanel" aria-label={TABS.find((t) => t.id === tab)?.label} style={{ marginTop: 14 }}>
        <PagedPlaylistList
          list={current}
          label="My playlists"
          emptyText={EMPTY[tab]}
          pageOffset={offsets[tab]}
          pageSize={PAGE_SIZES.userPlaylists}
          onPageChange={(o) => setOffsets((all) => ({ ...all, [tab]: o }))}
        />
      </div>
    </>
  );
}
