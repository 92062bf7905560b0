// What other parts of the web app may use from users: the profile card.
export { ProfileCard } from './ProfileCard.tsx';
