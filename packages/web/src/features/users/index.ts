// What other parts of the web app may use from users: the own (editable) profile card and the
// friends lists.
export { friendsQuery, useChangeFriend } from './api.ts';
export { OwnProfile } from './OwnProfile.tsx';
