CREATE TABLE "lovense_connections" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"https_port" integer,
	"http_port" integer,
	"ws_port" integer,
	"wss_port" integer,
	"app_type" text,
	"platform" text,
	"app_version" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lovense_toys" (
	"user_id" integer NOT NULL,
	"toy_id" text NOT NULL,
	"name" text NOT NULL,
	"nick_name" text,
	"connected" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lovense_toys_user_id_toy_id_pk" PRIMARY KEY("user_id","toy_id")
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"session_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patreon_links" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"patreon_user_id" text NOT NULL,
	"patreon_name" text,
	"access_token" text NOT NULL,
	"refresh_token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_verified" timestamp with time zone DEFAULT now() NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "membership_tiers" ADD COLUMN "campaign_id" text;--> statement-breakpoint
ALTER TABLE "membership_tiers" ADD COLUMN "amount_cents" integer;--> statement-breakpoint
ALTER TABLE "lovense_connections" ADD CONSTRAINT "lovense_connections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lovense_toys" ADD CONSTRAINT "lovense_toys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patreon_links" ADD CONSTRAINT "patreon_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patreon_links_patreon_user_idx" ON "patreon_links" USING btree ("patreon_user_id");