// Who is playing, proven: the Embedded App SDK's handshake with the Discord client, its
// `authorize` (a one-time code from Discord), the bot's `api/session` (the bot exchanges the
// code with Discord itself and answers with a ticket for this table's socket), then the
// SDK's `authenticate` with the token the bot got. The page claims nothing the bot believes.

import { DiscordSDK } from "@discord/embedded-app-sdk";
import type { Texts } from "./draw";

export interface Session {
  ticket: string;
  lang: string;
  texts: Texts;
  user: { id: string; name: string };
}

export class Refused extends Error {
  constructor(readonly reason: string, message: string) {
    super(message);
  }
}

let sdk: DiscordSDK | null = null;

/** Whether the page runs inside Discord's client (which puts these in its address). */
export function inDiscord(): boolean {
  const q = new URLSearchParams(location.search);
  return q.has("frame_id") && q.has("instance_id") && q.has("platform");
}

/** The SDK, once: its handshake runs as it is made. */
export async function ready(appId: string): Promise<DiscordSDK> {
  if (sdk === null) {
    sdk = new DiscordSDK(appId, { disableConsoleLogOverride: true });
  }
  await sdk.ready();
  return sdk;
}

/** A ticket for the table of the instance's channel, for the user Discord says is here. */
export async function session(appId: string): Promise<Session> {
  const discord = await ready(appId);
  const { code } = await discord.commands.authorize({
    client_id: appId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch("api/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "omit",
    body: JSON.stringify({
      code,
      instance_id: discord.instanceId,
      guild_id: discord.guildId,
      channel_id: discord.channelId,
    }),
  });
  const body = await response.json();
  if (!response.ok) {
    throw new Refused(String(body.error), String(body.text));
  }
  await discord.commands.authenticate({ access_token: body.access_token });
  return {
    ticket: body.ticket,
    lang: body.lang,
    texts: body.texts,
    user: body.user,
  };
}
