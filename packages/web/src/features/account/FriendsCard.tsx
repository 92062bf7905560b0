import type { Friend } from '@mesmer/shared/api/users';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { friendsQuery, useChangeFriend } from '../../api/users.ts';
import { Avatar, Card, ErrorState, LoadingState, toast } from '../../ui/index.ts';
import styles from './account.module.css';

/** Friends, requests to you (Accept / Decline) and your requests (Cancel), on the account page. */
export function FriendsCard() {
  const lists = useQuery(friendsQuery);
  const change = useChangeFriend();
  const act = (friend: Friend, add: boolean, failed: string) =>
    change.mutate({ friendId: friend.id, add }, { onError: (err) => toast('error', failed, err.message) });

  const list = (label: string, people: Friend[], actions: (f: Friend) => ReactNode) =>
    people.length > 0 && (
      <section aria-label={label}>
        <h3 className={styles.friendsHeading}>{label}</h3>
        <ul className={styles.friendList}>
          {people.map((f) => (
            <li key={f.id}>
              <Avatar name={f.username} imageURL={f.imageURL} size={32} />
              <Link to={`/user/${encodeURIComponent(f.username)}`}>{f.username}</Link>
              {actions(f)}
            </li>
          ))}
        </ul>
      </section>
    );
  const button = (text: string, label: string, onClick: () => void, primary = false) => (
    <button
      type="button"
      className={`btn btn-small ${primary ? 'btn-primary' : 'btn-ghost'}`}
      aria-label={label}
      disabled={change.isPending}
      onClick={onClick}
    >
      {text}
    </button>
  );

  return (
    <Card className={styles.friends}>
      <h2 className={styles.cardTitle}>Friends</h2>
      {lists.isPending ? (
        <LoadingState label="Loading friends" />
      ) : lists.isError ? (
        <ErrorState message="Your friends could not be loaded." onRetry={lists.refetch} />
      ) : (
        <>
          {list('Friend requests', lists.data.incoming, (f) => (
            <>
              {button('Accept', `Accept ${f.username}`, () => act(f, true, 'Failed to accept.'), true)}
              {button('Decline', `Decline ${f.username}`, () => act(f, false, 'Failed to decline.'))}
            </>
          ))}
          {list('Your friends', lists.data.friends, (f) =>
            button('Remove', `Remove ${f.username}`, () => act(f, false, 'Failed to remove the friend.')),
          )}
          {list('Sent requests', lists.data.outgoing, (f) =>
            button('Cancel', `Cancel the request to ${f.username}`, () =>
              act(f, false, 'Failed to cancel the request.'),
            ),
          )}
          {lists.data.friends.length + lists.data.incoming.length + lists.data.outgoing.length === 0 && (
            <p className="muted">No friends yet. Add someone from their profile.</p>
          )}
        </>
      )}
    </Card>
  );
}
