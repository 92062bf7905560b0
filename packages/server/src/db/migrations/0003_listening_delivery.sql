ALTER TABLE "users" ADD COLUMN "timezone_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD COLUMN "audio_size" bigint;--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD COLUMN "served_ranges" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD COLUMN "play_listener" text;--> statement-breakpoint
CREATE INDEX "listening_sessions_play_idx" ON "listening_sessions" USING btree ("play_listener","file_id","ended_at");--> statement-breakpoint
CREATE INDEX "listening_sessions_started_idx" ON "listening_sessions" USING btree ("started_at");