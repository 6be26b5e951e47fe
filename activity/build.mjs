// Builds the bot's browser client into its package (bot/web/static/), where the bot serves
// it: `pip install` needs no Node. One source (src/), three entry points sharing its socket
// and drawing modules (socket.ts, draw.ts): the Activity (activity/app.js, with Discord's
// SDK) and the web pages' live table and replay (pages/table.js, pages/replay.js, without
// it). The output is the same for the same sources and lock file (no timestamps, no
// absolute paths, no source map), which CI checks by building again and comparing (.ci/run).
import { build } from "esbuild";

const out = "../bot/web/static";
const common = {
  bundle: true,
  minify: true,
  legalComments: "eof",
  logLevel: "warning",
  charset: "utf8",
};
const script = {
  ...common,
  format: "iife",
  target: ["es2020", "chrome100", "safari15"],
  platform: "browser",
};

await build({ ...script, entryPoints: ["src/main.ts"], outfile: `${out}/activity/app.js` });
await build({ ...script, entryPoints: ["src/page.ts"], outfile: `${out}/pages/table.js` });
await build({ ...script, entryPoints: ["src/replay.ts"], outfile: `${out}/pages/replay.js` });
await build({
  ...common,
  entryPoints: ["src/style.css"],
  outfile: `${out}/activity/app.css`,
  target: ["chrome100", "safari15"],
});
