CREATE TABLE "insights_creator_listeners" (
	"creator_id" integer NOT NULL,
	"day" date NOT NULL,
	"listener_key" text NOT NULL,
	CONSTRAINT "insights_creator_listeners_creator_id_day_listener_key_pk" PRIMARY KEY("creator_id","day","listener_key")
);
--> statement-breakpoint
CREATE TABLE "insights_file_day_counts" (
	"file_id" integer NOT NULL,
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_file_day_counts_file_id_day_dimension_key_pk" PRIMARY KEY("file_id","day","dimension","key")
);
--> statement-breakpoint
CREATE TABLE "insights_file_days" (
	"file_id" integer NOT NULL,
	"day" date NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"listening_ms" bigint DEFAULT 0 NOT NULL,
	"share_heard" double precision DEFAULT 0 NOT NULL,
	"completions" integer DEFAULT 0 NOT NULL,
	"toy_plays" integer DEFAULT 0 NOT NULL,
	"retention" integer[] NOT NULL,
	CONSTRAINT "insights_file_days_file_id_day_pk" PRIMARY KEY("file_id","day")
);
--> statement-breakpoint
CREATE TABLE "insights_file_listeners" (
	"file_id" integer NOT NULL,
	"day" date NOT NULL,
	"listener_key" text NOT NULL,
	CONSTRAINT "insights_file_listeners_file_id_day_listener_key_pk" PRIMARY KEY("file_id","day","listener_key")
);
--> statement-breakpoint
CREATE TABLE "insights_listener_days" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"listened_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_listener_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "insights_listener_files" (
	"user_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"listened_ms" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "insights_listener_files_user_id_file_id_pk" PRIMARY KEY("user_id","file_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "insights_opt_out" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD COLUMN "toy_connected" boolean;--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD COLUMN "supporter_tier_id" text;--> statement-breakpoint
ALTER TABLE "insights_creator_listeners" ADD CONSTRAINT "insights_creator_listeners_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_file_day_counts" ADD CONSTRAINT "insights_file_day_counts_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_file_days" ADD CONSTRAINT "insights_file_days_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_file_listeners" ADD CONSTRAINT "insights_file_listeners_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_listener_days" ADD CONSTRAINT "insights_listener_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_listener_files" ADD CONSTRAINT "insights_listener_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "insights_listener_files" ADD CONSTRAINT "insights_listener_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "insights_listener_days_day_idx" ON "insights_listener_days" USING btree ("day");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "files_created_idx" ON "files" USING btree ("created_at");