-- Kept sums of a file or creator deleted before this migration go first.
DELETE FROM "insights_kept_file_plays" k WHERE NOT EXISTS (SELECT 1 FROM "users" u WHERE u.id = k.creator_id);--> statement-breakpoint
DELETE FROM "insights_kept_retention" k WHERE NOT EXISTS (SELECT 1 FROM "files" f WHERE f.id = k.file_id);--> statement-breakpoint
ALTER TABLE "insights_kept_file_plays" ADD CONSTRAINT "insights_kept_file_plays_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_kept_retention" ADD CONSTRAINT "insights_kept_retention_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;