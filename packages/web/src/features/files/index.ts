// What other parts of the web app may use from files: the file queries, the upload dialog and the
// file editor (the track popup's edit mode).
export { fileByUuidQuery, filesQuery, scriptQuery, tagsQuery } from './api.ts';
export type { FileEditorHandle } from './edit/FileEditor.tsx';
export { FileEditor } from './edit/LazyFileEditor.tsx';
export { UploadDialog } from './upload/LazyUploadDialog.tsx';
