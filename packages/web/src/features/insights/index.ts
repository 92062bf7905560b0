export { FileInsightsPanel } from './FileInsightsPanel.tsx';
