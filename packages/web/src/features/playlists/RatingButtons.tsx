import type { Playlist } from '@mesmer/shared/api/playlists';
import {
  applyRating,
  canFavoritePlaylist,
  canLikePlaylist,
  formatLikeRatio,
  likeRatio,
  type RatingAction,
  type RatingState,
} from '@mesmer/shared/domain/rating';
import { useQuery } from '@tanstack/react-query';
import { Star, ThumbsDown, ThumbsUp } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useCurrentUser } from '../../api/auth.ts';
import { playlistUserQuery } from '../../api/playlists.ts';
import { useRatePlaylist } from './api.ts';
import page from './playlist.module.css';

/**
 * Like, dislike and favourite. Presses show at once and are sent in the background;
 * a failed one quietly puts the buttons back. The like ratio shows once anyone rated.
 */
export function RatingButtons({ playlist }: { playlist: Playlist }) {
  const { user } = useCurrentUser();
  const canLike = canLikePlaylist(playlist, user?.id);
  const canFavorite = canFavoritePlaylist(user?.id);
  const info = useQuery(playlistUserQuery(playlist.id, canFavorite));
  const rate = useRatePlaylist();

  const [state, setState] = useState<RatingState>({
    isLiked: false,
    isDisliked: false,
    isFavorite: false,
    likes: playlist.likes,
    dislikes: playlist.dislikes,
    favorites: playlist.favorites,
  });
  // The answer the state was last set from: effects run after the paint (Preact), so until then the state
  // is the defaults, and a press would rate from them.
  const [syncedWith, setSyncedWith] = useState<typeof info.data>();
  useEffect(() => {
    if (!info.data) return;
    const { isLiked, isDisliked, isFavorite, likes, dislikes } = info.data;
    setState((s) => ({ ...s, isLiked, isDisliked, isFavorite, likes, dislikes }));
    setSyncedWith(info.data);
  }, [info.data]);

  const press = (action: RatingAction) => {
    const before = state;
    const after = applyRating(before, action);
    setState(after);
    rate.mutate(
      { id: playlist.id, isLiked: after.isLiked, isDisliked: after.isDisliked, isFavorite: after.isFavorite },
      { onError: () => setState(before) },
    );
  };

  const ratio = formatLikeRatio(likeRatio(state.likes, state.dislikes));
  const ready = !canFavorite || (info.isSuccess && syncedWith === info.data);
  if (!canLike && !canFavorite && !ratio) return null;
  return (
    <div className={page.rating}>
      {canLike && (
        <>
          <RateButton
            label="Like"
            icon={<ThumbsUp size={18} aria-hidden />}
            pressed={state.isLiked}
            count={state.likes}
            disabled={!ready}
            onPress={() => press('like')}
          />
          <RateButton
            label="Dislike"
            icon={<ThumbsDown size={18} aria-hidden />}
            pressed={state.isDisliked}
            count={state.dislikes}
            disabled={!ready}
            onPress={() => press('dislike')}
          />
        </>
      )}
      {canFavorite && (
        <RateButton
          label="Favourite"
          icon={<Star size={18} aria-hidden />}
          pressed={state.isFavorite}
          count={state.favorites}
          disabled={!ready}
          onPress={() => press('favorite')}
        />
      )}
      {ratio && (
        <span className={page.ratio} title="Share of likes among all ratings">
          {ratio} liked
        </span>
      )}
    </div>
  );
}

/** One rating toggle: its icon and how many people chose it. */
function RateButton({
  label,
  icon,
  pressed,
  count,
  disabled,
  onPress,
}: {
  label: string;
  icon: ReactNode;
  pressed: boolean;
  count: number;
  disabled: boolean;
  onPress: () => void;
}) {
  return (
    <button
      type="button"
      className={page.rateButton}
      aria-pressed={pressed}
      aria-label={label}
      disabled={disabled}
      onClick={onPress}
    >
      {icon} <span>{count}</span>
    </button>
  );
}
