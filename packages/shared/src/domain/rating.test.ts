import { describe, expect, it } from 'vitest';
import {
  applyRating,
  canFavoritePlaylist,
  canLikePlaylist,
  formatLikeRatio,
  likeRatio,
  type RatingState,
} from './rating.ts';

const unrated: RatingState = {
  isLiked: false,
  isDisliked: false,
  isFavorite: false,
  likes: 4,
  dislikes: 2,
  favorites: 3,
};

describe('applyRating', () => {
  it('liking adds one like; liking again removes it', () => {
    const liked = applyRating(unrated, 'like');
    expect(liked).toEqual({ ...unrated, isLiked: true, likes: 5 });
    expect(applyRating(liked, 'like')).toEqual(unrated);
  });

  it('disliking adds one dislike; disliking again removes it', () => {
    const disliked = applyRating(unrated, 'dislike');
    expect(disliked).toEqual({ ...unrated, isDisliked: true, dislikes: 3 });
    expect(applyRating(disliked, 'dislike')).toEqual(unrated);
  });

  it('like and dislike exclude each other and move both counts', () => {
    const liked = applyRating(unrated, 'like');
    expect(applyRating(liked, 'dislike')).toEqual({
      ...unrated,
      isLiked: false,
      likes: 4,
      isDisliked: true,
      dislikes: 3,
    });
    const disliked = applyRating(unrated, 'dislike');
    expect(applyRating(disliked, 'like')).toEqual({
      ...unrated,
      isLiked: true,
      likes: 5,
      isDisliked: false,
      dislikes: 2,
    });
  });

  it('favourite toggles on its own, leaving likes alone', () => {
    const liked = applyRating(unrated, 'like');
    const fav = applyRating(liked, 'favorite');
    expect(fav).toEqual({ ...liked, isFavorite: true, favorites: 4 });
    expect(applyRating(fav, 'favorite')).toEqual(liked);
  });

  it('never counts below zero', () => {
    const odd: RatingState = { ...unrated, isLiked: true, likes: 0, isFavorite: true, favorites: 0 };
    expect(applyRating(odd, 'like').likes).toBe(0);
    expect(applyRating(odd, 'favorite').favorites).toBe(0);
  });

  it('does not change the state it is given', () => {
    const copy = { ...unrated };
    applyRating(unrated, 'like');
    expect(unrated).toEqual(copy);
  });
});

describe('likeRatio and formatLikeRatio', () => {
  it('is null when nobody rated', () => {
    expect(likeRatio(0, 0)).toBeNull();
    expect(formatLikeRatio(null)).toBe('');
  });

  it.each([
    [3, 1, '75%'],
    [1, 0, '100%'],
    [0, 5, '0%'],
    [2, 1, '66.7%'],
    [1, 2, '33.3%'],
    [1, 7, '12.5%'],
    [1999, 1, '100%'],
    [1, 1999, '0.1%'],
  ])('%i likes and %i dislikes read %s', (likes, dislikes, text) => {
    expect(formatLikeRatio(likeRatio(likes, dislikes))).toBe(text);
  });

  it('formats ratios given by the server', () => {
    expect(formatLikeRatio(50)).toBe('50%');
    expect(formatLikeRatio(87.25)).toBe('87.3%');
  });
});

describe('who may rate', () => {
  const community = { isPublic: true, isCore: false, creator: { id: 5 } };

  it('likes need a signed-in viewer and a public community playlist', () => {
    expect(canLikePlaylist(community, 2)).toBe(true);
    expect(canLikePlaylist(community, null)).toBe(false);
    expect(canLikePlaylist({ ...community, isPublic: false }, 2)).toBe(false);
    expect(canLikePlaylist({ ...community, isCore: true }, 2)).toBe(false);
    expect(canLikePlaylist({ ...community, creator: { id: 1 } }, 2)).toBe(false);
  });

  it('nobody rates their own playlist', () => {
    expect(canLikePlaylist(community, 5)).toBe(false);
  });

  it('favourites need only a signed-in viewer', () => {
    expect(canFavoritePlaylist(7)).toBe(true);
    expect(canFavoritePlaylist(null)).toBe(false);
    expect(canFavoritePlaylist(undefined)).toBe(false);
  });
});
