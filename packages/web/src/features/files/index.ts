// What other parts of the web app may use from files: the file queries.
export { fileByUuidQuery, filesQuery, tagsQuery } from './api.ts';
