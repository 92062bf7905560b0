// What other parts of the web app may use from progress: the progress card.
export { ProgressCard } from './ProgressCard.tsx';
