DROP INDEX "files_release_idx";--> statement-breakpoint
DROP INDEX "files_type_idx";--> statement-breakpoint
DROP INDEX "files_haptics_idx";--> statement-breakpoint
DROP INDEX "playlists_created_idx";--> statement-breakpoint
DROP INDEX "playlists_public_created_idx";--> statement-breakpoint
DROP INDEX "playlists_creator_idx";--> statement-breakpoint
CREATE INDEX "files_release_idx" ON "files" USING btree ("release_date","id");--> statement-breakpoint
CREATE INDEX "files_type_idx" ON "files" USING btree ("file_type","release_date","id");--> statement-breakpoint
CREATE INDEX "files_haptics_idx" ON "files" USING btree ("release_date","id") WHERE "files"."haptics_key" is not null;--> statement-breakpoint
CREATE INDEX "playlists_created_idx" ON "playlists" USING btree ("date_created","id");--> statement-breakpoint
CREATE INDEX "playlists_public_created_idx" ON "playlists" USING btree ("date_created","id") WHERE "playlists"."is_public";--> statement-breakpoint
CREATE INDEX "playlists_creator_idx" ON "playlists" USING btree ("creator_id","date_created","id");