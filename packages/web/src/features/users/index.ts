// What the app shell composes from users: the own (editable) profile card.
export { OwnProfile } from './OwnProfile.tsx';
