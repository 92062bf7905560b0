CREATE TABLE "offline_copies" (
	"user_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	"copied_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offline_copies_user_id_file_id_pk" PRIMARY KEY("user_id","file_id")
);
--> statement-breakpoint
ALTER TABLE "listening_sessions" ADD COLUMN "offline" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "offline_copies" ADD CONSTRAINT "offline_copies_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offline_copies" ADD CONSTRAINT "offline_copies_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "listening_sessions_offline_idx" ON "listening_sessions" USING btree ("user_id","file_id","started_at") WHERE "listening_sessions"."offline";