// What the app shell composes from files: the upload dialog and the file editor (the track popup's edit mode).
export { FileEditor } from './edit/LazyFileEditor.tsx';
export { UploadDialog } from './upload/LazyUploadDialog.tsx';
