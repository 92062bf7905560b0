CREATE TABLE "auth_sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"show_badge" boolean DEFAULT true NOT NULL,
	"text_color" text DEFAULT '#000000' NOT NULL,
	"background" text DEFAULT '#FC688F' NOT NULL,
	CONSTRAINT "roles_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "user_roles" (
	"user_id" integer NOT NULL,
	"role_id" integer NOT NULL,
	CONSTRAINT "user_roles_user_id_role_id_pk" PRIMARY KEY("user_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image_url" text,
	"biography" text DEFAULT '' NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"streak" integer DEFAULT 0 NOT NULL,
	"last_listen_day" date,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"censor_triggers" boolean DEFAULT false NOT NULL,
	"hide_locked_files" boolean DEFAULT false NOT NULL,
	"lovense_token" text,
	"vibration_offset" integer DEFAULT 0 NOT NULL,
	"max_vibration" integer DEFAULT 50 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_tags" (
	"file_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "file_tags_file_id_tag_id_pk" PRIMARY KEY("file_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "file_tiers" (
	"file_id" integer NOT NULL,
	"tier_id" text NOT NULL,
	CONSTRAINT "file_tiers_file_id_tier_id_pk" PRIMARY KEY("file_id","tier_id")
);
--> statement-breakpoint
CREATE TABLE "file_triggers" (
	"file_id" integer NOT NULL,
	"trigger_id" integer NOT NULL,
	"trains" boolean DEFAULT false NOT NULL,
	CONSTRAINT "file_triggers_file_id_trigger_id_pk" PRIMARY KEY("file_id","trigger_id")
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"file_type" integer NOT NULL,
	"track_number" integer,
	"release_date" timestamp with time zone DEFAULT now() NOT NULL,
	"is_public" boolean DEFAULT true NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"duration" integer DEFAULT 0 NOT NULL,
	"audio_key" text NOT NULL,
	"audio_type" text NOT NULL,
	"script_key" text,
	"haptics_key" text,
	"warnings" text[] DEFAULT '{}'::text[] NOT NULL,
	"author_id" integer NOT NULL,
	"uploader_id" integer NOT NULL,
	"user_uploaded" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', name || ' ' || description)) STORED,
	CONSTRAINT "files_file_type_check" CHECK ("files"."file_type" between 1 and 9)
);
--> statement-breakpoint
CREATE TABLE "membership_tiers" (
	"id" text PRIMARY KEY NOT NULL,
	"creator_name" text NOT NULL,
	"title" text NOT NULL,
	"rank" integer NOT NULL,
	"creator_user_id" integer
);
--> statement-breakpoint
CREATE TABLE "playlist_files" (
	"playlist_id" integer NOT NULL,
	"position" integer NOT NULL,
	"file_id" integer NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	CONSTRAINT "playlist_files_playlist_id_position_pk" PRIMARY KEY("playlist_id","position")
);
--> statement-breakpoint
CREATE TABLE "playlist_ratings" (
	"user_id" integer NOT NULL,
	"playlist_id" integer NOT NULL,
	"liked" boolean DEFAULT false NOT NULL,
	"disliked" boolean DEFAULT false NOT NULL,
	"favorite" boolean DEFAULT false NOT NULL,
	CONSTRAINT "playlist_ratings_user_id_playlist_id_pk" PRIMARY KEY("user_id","playlist_id")
);
--> statement-breakpoint
CREATE TABLE "playlists" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"exp_level" integer NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"is_core" boolean DEFAULT false NOT NULL,
	"creator_id" integer NOT NULL,
	"date_created" timestamp with time zone DEFAULT now() NOT NULL,
	"likes" integer DEFAULT 0 NOT NULL,
	"dislikes" integer DEFAULT 0 NOT NULL,
	"favorites" integer DEFAULT 0 NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', name || ' ' || description)) STORED,
	CONSTRAINT "playlists_exp_level_check" CHECK ("playlists"."exp_level" between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "series" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"creator_id" integer NOT NULL,
	"date_created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "series_playlists" (
	"series_id" integer NOT NULL,
	"position" integer NOT NULL,
	"playlist_id" integer NOT NULL,
	CONSTRAINT "series_playlists_series_id_position_pk" PRIMARY KEY("series_id","position")
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "tags_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "triggers" (
	"id" serial PRIMARY KEY NOT NULL,
	"uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"creator_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_memberships" (
	"user_id" integer NOT NULL,
	"tier_id" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"cancelled" boolean DEFAULT false NOT NULL,
	"last_verified" timestamp with time zone,
	CONSTRAINT "user_memberships_user_id_tier_id_pk" PRIMARY KEY("user_id","tier_id")
);
--> statement-breakpoint
CREATE TABLE "user_series" (
	"user_id" integer NOT NULL,
	"series_id" integer NOT NULL,
	"playlist_index" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "user_series_user_id_series_id_pk" PRIMARY KEY("user_id","series_id")
);
--> statement-breakpoint
CREATE TABLE "user_triggers" (
	"user_id" integer NOT NULL,
	"trigger_id" integer NOT NULL,
	"training_amount" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "user_triggers_user_id_trigger_id_pk" PRIMARY KEY("user_id","trigger_id")
);
--> statement-breakpoint
CREATE TABLE "listening_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" integer,
	"file_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"points" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth_sessions" ADD CONSTRAINT "auth_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_tokens" ADD CONSTRAINT "email_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_id_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_tags" ADD CONSTRAINT "file_tags_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_tags" ADD CONSTRAINT "file_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_tiers" ADD CONSTRAINT "file_tiers_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_tiers" ADD CONSTRAINT "file_tiers_tier_id_membership_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."membership_tiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_triggers" ADD CONSTRAINT "file_triggers_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_triggers" ADD CONSTRAINT "file_triggers_trigger_id_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."triggers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "membership_tiers" ADD CONSTRAINT "membership_tiers_creator_user_id_users_id_fk" FOREIGN KEY ("creator_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_files" ADD CONSTRAINT "playlist_files_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_files" ADD CONSTRAINT "playlist_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_ratings" ADD CONSTRAINT "playlist_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlist_ratings" ADD CONSTRAINT "playlist_ratings_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "playlists" ADD CONSTRAINT "playlists_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series" ADD CONSTRAINT "series_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_playlists" ADD CONSTRAINT "series_playlists_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "series_playlists" ADD CONSTRAINT "series_playlists_playlist_id_playlists_id_fk" FOREIGN KEY ("playlist_id") REFERENCES "public"."playlists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triggers" ADD CONSTRAINT "triggers_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_memberships" ADD CONSTRAINT "user_memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_memberships" ADD CONSTRAINT "user_memberships_tier_id_membership_tiers_id_fk" FOREIGN KEY ("tier_id") REFERENCES "public"."membership_tiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_series" ADD CONSTRAINT "user_series_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_series" ADD CONSTRAINT "user_series_series_id_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_triggers" ADD CONSTRAINT "user_triggers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_triggers" ADD CONSTRAINT "user_triggers_trigger_id_triggers_id_fk" FOREIGN KEY ("trigger_id") REFERENCES "public"."triggers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD CONSTRAINT "listening_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD CONSTRAINT "listening_sessions_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_sessions_user_idx" ON "auth_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "email_tokens_user_idx" ON "email_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_lower_idx" ON "users" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_points_idx" ON "users" USING btree ("points" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "users_leaderboard_idx" ON "users" USING btree ("points" DESC NULLS LAST,lower("username") collate "C","username") WHERE "users"."points" > 0;--> statement-breakpoint
CREATE INDEX "file_tags_tag_idx" ON "file_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE INDEX "file_tiers_tier_idx" ON "file_tiers" USING btree ("tier_id");--> statement-breakpoint
CREATE INDEX "file_triggers_trigger_idx" ON "file_triggers" USING btree ("trigger_id","trains","file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "files_uuid_idx" ON "files" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "files_search_idx" ON "files" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "files_name_trgm_idx" ON "files" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "files_release_idx" ON "files" USING btree ("release_date","id");--> statement-breakpoint
CREATE INDEX "files_name_sort_idx" ON "files" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "files_duration_idx" ON "files" USING btree ("duration","id");--> statement-breakpoint
CREATE INDEX "files_plays_idx" ON "files" USING btree ("plays","id");--> statement-breakpoint
CREATE INDEX "files_type_idx" ON "files" USING btree ("file_type","release_date","id");--> statement-breakpoint
CREATE INDEX "files_author_idx" ON "files" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "files_uploader_idx" ON "files" USING btree ("uploader_id");--> statement-breakpoint
CREATE INDEX "files_haptics_idx" ON "files" USING btree ("release_date","id") WHERE "files"."haptics_key" is not null;--> statement-breakpoint
CREATE INDEX "playlist_files_file_idx" ON "playlist_files" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "playlist_ratings_playlist_idx" ON "playlist_ratings" USING btree ("playlist_id");--> statement-breakpoint
CREATE UNIQUE INDEX "playlists_uuid_idx" ON "playlists" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "playlists_search_idx" ON "playlists" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "playlists_name_trgm_idx" ON "playlists" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "playlists_created_idx" ON "playlists" USING btree ("date_created","id");--> statement-breakpoint
CREATE INDEX "playlists_public_created_idx" ON "playlists" USING btree ("date_created","id") WHERE "playlists"."is_public";--> statement-breakpoint
CREATE INDEX "playlists_creator_idx" ON "playlists" USING btree ("creator_id","date_created","id");--> statement-breakpoint
CREATE INDEX "playlists_likes_idx" ON "playlists" USING btree ("likes","id");--> statement-breakpoint
CREATE INDEX "playlists_favorites_idx" ON "playlists" USING btree ("favorites","id");--> statement-breakpoint
CREATE INDEX "playlists_name_sort_idx" ON "playlists" USING btree (lower("name"),"id");--> statement-breakpoint
CREATE INDEX "playlists_level_idx" ON "playlists" USING btree ("exp_level","id");--> statement-breakpoint
CREATE INDEX "playlists_core_level_idx" ON "playlists" USING btree ("exp_level","id") WHERE "playlists"."is_core";--> statement-breakpoint
CREATE UNIQUE INDEX "series_uuid_idx" ON "series" USING btree ("uuid");--> statement-breakpoint
CREATE INDEX "series_playlists_playlist_idx" ON "series_playlists" USING btree ("playlist_id");--> statement-breakpoint
CREATE UNIQUE INDEX "triggers_uuid_idx" ON "triggers" USING btree ("uuid");--> statement-breakpoint
CREATE UNIQUE INDEX "triggers_name_lower_idx" ON "triggers" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "triggers_name_trgm_idx" ON "triggers" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_memberships_tier_idx" ON "user_memberships" USING btree ("tier_id");--> statement-breakpoint
CREATE UNIQUE INDEX "listening_sessions_token_idx" ON "listening_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "listening_sessions_user_ended_idx" ON "listening_sessions" USING btree ("user_id","ended_at");