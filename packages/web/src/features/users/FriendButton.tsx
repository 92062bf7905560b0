import type { FriendsList } from '@mesmer/shared/api/users';
import { useQuery } from '@tanstack/react-query';
import { Clock, UserCheck, UserPlus } from 'lucide-react';
import { friendsQuery, useChangeFriend } from '../../api/users.ts';
import { Tooltip, toast } from '../../ui/index.ts';

type FriendState = 'none' | 'requested' | 'incoming' | 'friends';

function stateOf(lists: FriendsList, userId: number): FriendState {
  const has = (list: FriendsList['friends']) => list.some((f) => f.id === userId);
  if (has(lists.friends)) return 'friends';
  if (has(lists.incoming)) return 'incoming';
  if (has(lists.outgoing)) return 'requested';
  return 'none';
}

/**
 * On another user's profile: Add friend, Requested (pressing it takes the request back), Accept
 * (they asked you) or Friends (ended on the account page).
 */
export function FriendButton({ userId }: { userId: number }) {
  const lists = useQuery(friendsQuery);
  const change = useChangeFriend();
  if (!lists.data) return null;
  const state = stateOf(lists.data, userId);
  const send = (add: boolean, failed: string) =>
    change.mutate({ friendId: userId, add }, { onError: (err) => toast('error', failed, err.message) });

  if (state === 'friends') {
    return (
      <button type="button" className="btn btn-ghost" disabled>
        <UserCheck size={18} aria-hidden /> Friends
      </button>
    );
  }
  if (state === 'requested') {
    return (
      <Tooltip content="Take the request back">
        <button
          type="button"
          className="btn btn-ghost"
          disabled={change.isPending}
          onClick={() => send(false, 'Failed to cancel the request.')}
        >
          <Clock size={18} aria-hidden /> Requested
        </button>
      </Tooltip>
    );
  }
  return (
    <button
      type="button"
      className="btn btn-primary"
      disabled={change.isPending}
      onClick={() => send(true, state === 'incoming' ? 'Failed to accept.' : 'Failed to add friend.')}
    >
      <UserPlus size={18} aria-hidden /> {state === 'incoming' ? 'Accept' : 'Add friend'}
    </button>
  );
}
