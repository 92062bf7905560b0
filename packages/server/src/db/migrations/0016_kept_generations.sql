CREATE TABLE "kept_generations" (
	"name" text PRIMARY KEY NOT NULL,
	"generation" bigint DEFAULT 0 NOT NULL
);
