CREATE TABLE "upload_chunks" (
	"upload_uuid" uuid NOT NULL,
	"chunk_index" integer NOT NULL,
	"size" bigint NOT NULL,
	"etag" text NOT NULL,
	CONSTRAINT "upload_chunks_upload_uuid_chunk_index_pk" PRIMARY KEY("upload_uuid","chunk_index")
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"uuid" uuid PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"secure" boolean DEFAULT false NOT NULL,
	"total_chunks" integer NOT NULL,
	"declared_size" bigint,
	"storage_key" text NOT NULL,
	"storage_upload_id" text NOT NULL,
	"state" text DEFAULT 'receiving' NOT NULL,
	"error" text,
	"audio_type" text,
	"codec" text,
	"duration" integer,
	"size" bigint,
	"waveform" real[],
	"loudness" real,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "waveform" real[];--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "loudness" real;--> statement-breakpoint
ALTER TABLE "upload_chunks" ADD CONSTRAINT "upload_chunks_upload_uuid_uploads_uuid_fk" FOREIGN KEY ("upload_uuid") REFERENCES "public"."uploads"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_user_idx" ON "uploads" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "uploads_updated_idx" ON "uploads" USING btree ("updated_at");