// What other parts of the web app may use from files: the file queries and the upload dialog.
export { fileByUuidQuery, filesQuery, tagsQuery } from './api.ts';
export { UploadDialog } from './upload/LazyUploadDialog.tsx';
