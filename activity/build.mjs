// Builds the Activity's script and style into the bot's package (bot/web/static/activity/),
// where the bot serves them: `pip install` needs no Node. The output is the same for the
// same sources and lock file (no timestamps, no absolute paths, no source map), which CI
// checks by building again and comparing (.ci/run).
import { build } from "esbuild";

const out = "../bot/web/static/activity";
const common = {
  bundle: true,
  minify: true,
  legalComments: "eof",
  logLevel: "warning",
  charset: "utf8",
};

await build({
  ...common,
  entryPoints: ["src/main.ts"],
  outfile: `${out}/app.js`,
  format: "iife",
  target: ["es2020", "chrome100", "safari15"],
  platform: "browser",
});
await build({
  ...common,
  entryPoints: ["src/style.css"],
  outfile: `${out}/app.css`,
  target: ["chrome100", "safari15"],
});
