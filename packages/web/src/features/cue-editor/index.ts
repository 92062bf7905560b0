export { CueEditorSection } from './CueEditorSection.tsx';
