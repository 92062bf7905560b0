import { SITE_OWNER_ID } from './permissions.ts';

/** A viewer's rating of a playlist together with the playlist's counts. */
export interface RatingState {
  isLiked: boolean;
  isDisliked: boolean;
  isFavorite: boolean;
  likes: number;
  dislikes: number;
  favorites: number;
}

export type RatingAction = 'like' | 'dislike' | 'favorite';

/**
 * The optimistic result of pressing a rating button: it toggles, the count moves by
 * +1 when newly rated and -1 when removed, and like and dislike exclude each other.
 */
export function applyRating(state: RatingState, action: RatingAction): RatingState {
  switch (action) {
    case 'favorite':
      return {
        ...state,
        isFavorite: !state.isFavorite,
        favorites: Math.max(0, state.favorites + (state.isFavorite ? -1 : 1)),
      };
    case 'like':
      if (state.isLiked) return { ...state, isLiked: false, likes: Math.max(0, state.likes - 1) };
      return {
        ...state,
        isLiked: true,
        likes: state.likes + 1,
        isDisliked: false,
        dislikes: state.isDisliked ? Math.max(0, state.dislikes - 1) : state.dislikes,
      };
    case 'dislike':
      if (state.isDisliked) return { ...state, isDisliked: false, dislikes: Math.max(0, state.dislikes - 1) };
      return {
        ...state,
        isDisliked: true,
        dislikes: state.dislikes + 1,
        isLiked: false,
        likes: state.isLiked ? Math.max(0, state.likes - 1) : state.likes,
      };
  }
}

/** Likes as a percentage of all ratings; null when nobody rated. The server answers it; the web recounts it after a press. */
export function likeRatio(likes: number, dislikes: number): number | null {
  const total = likes + dislikes;
  return total > 0 ? (likes * 100) / total : null;
}

/** '75%' for whole numbers, else one decimal ('66.7%'); empty for no ratio. */
export function formatLikeRatio(ratio: number | null): string {
  if (ratio === null || !Number.isFinite(ratio)) return '';
  const rounded = Math.round(ratio * 10) / 10;
  return Number.isInteger(rounded) ? `${rounded}%` : `${rounded.toFixed(1)}%`;
}

interface RatedPlaylist {
  isPublic: boolean;
  isCore: boolean;
  creator: { id: number };
}

/**
 * Like and dislike: signed-in viewers, on public community playlists (not core, not by the
 * site owner) that are not their own. The server refuses what this refuses (403).
 */
export function canLikePlaylist(playlist: RatedPlaylist, viewerId: number | null | undefined): boolean {
  return (
    viewerId != null &&
    playlist.isPublic &&
    !playlist.isCore &&
    playlist.creator.id !== SITE_OWNER_ID &&
    playlist.creator.id !== viewerId
  );
}

/** Favourite: any signed-in viewer. */
export function canFavoritePlaylist(viewerId: number | null | undefined): boolean {
  return viewerId != null;
}
