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
import { useEffect, useState } from 'react';
import { useCurrentUser } from '../auth/api.ts';
import { playlistUserQuery, useRatePlaylist } from './api.ts';
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
  useEffect(() => {
    if (!info.data) return;
    const { isLiked, isDisliked, isFavorite, likes, dislikes } = info.data;
    setState((s) => ({ ...s, isLiked, isDisliked, isFavorite, likes, dislikes }));
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
  const ready = !canFavorite || info.isSuccess;
  if (!canLike && !canFavorite && !ratio) return null;
  return (
    <div className={page.rating}>
      {canLike && (
        <>
          <button
            type="button"
            className={page.rateButton}
            aria-pressed={state.isLiked}
            aria-label="Like"
            disabled={!ready}
            onClick={() => press('like')}
          >
            <ThumbsUp size={18} aria-hidden /> <span>{state.likes}</span>
          </button>
          <button
            type="button"
            className={page.rateButton}
            aria-pressed={state.isDisliked}
            aria-label="Dislike"
            disabled={!ready}
            onClick={() => press('dislike')}
          >
            <ThumbsDown size={18} aria-hidden /> <span>{state.dislikes}</span>
          </button>
        </>
      )}
      {canFavorite && (
        <button
          type="button"
          className={page.rateButton}
          aria-pressed={state.isFavorite}
          aria-label="Favourite"
          disabled={!ready}
          onClick={() => press('favorite')}
        >
          <Star size={18} aria-hidden /> <span>{state.favorites}</span>
        </button>
      )}
      {ratio && (
        <span className={page.ratio} title="Share of likes among all ratings">
          {ratio} liked
        </span>
      )}
    </div>
  );
}
