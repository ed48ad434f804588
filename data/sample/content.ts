import type Database from "better-sqlite3";
import { CATEGORIES } from "../../core/categories.ts";
import { DAY_MS, formatInstant } from "../../core/time.ts";
import { slugify } from "../../core/transliterate.ts";
import type { Random } from "./random.ts";
import { BLOG_TOPICS, GLOSSARY_TERMS, HANDLE_WORDS, HOSTILE_NAMES, RULE_KINDS, VIDEO_TOPICS } from "./names.ts";
import { importFingerprintLibrary } from "../fingerprints/import.ts";

/** Glossary, videos, channels, chats, blog posts, detection rules and fingerprint profiles. */
export function generateContent(db: Database.Database, random: Random, scale: number, asOfMs: number): void {
  const past = (maxDays: number) => formatInstant(asOfMs - random.int(maxDays * DAY_MS));

  const glossary = db.prepare("INSERT INTO glossary (term, slug, definition) VALUES (?, ?, ?)");
  for (const [term, definition] of GLOSSARY_TERMS) glossary.run(term, slugify(term), definition);
  glossary.run(HOSTILE_NAMES[1]!, "hostile-term", "A term whose name is full of characters that need escaping: <, >, & and quotes.");

  const channels = Math.max(5, Math.round(scale / 2000));
  const insertChannel = db.prepare("INSERT INTO video_channels (id, name, slug, subscribers) VALUES (?, ?, ?, ?)");
  for (let id = 1; id <= channels; id++) {
    const name = `${random.pick(VIDEO_TOPICS)} ${random.pick(["TV", "Live", "Daily", "Лаб", "Cast"])} ${id}`;
    insertChannel.run(id, name, slugify(name), random.pareto(0.8, 2_000_000) * 100);
  }
  const insertVideo = db.prepare("INSERT INTO videos (title, slug, channel_id, published_at) VALUES (?, ?, ?, ?)");
  const videos = Math.max(20, Math.round(scale / 200));
  for (let id = 1; id <= videos; id++) {
    const title = id === 3 ? HOSTILE_NAMES[0]! : `${random.pick(VIDEO_TOPICS)}: ${random.pick(BLOG_TOPICS).toLowerCase()} #${id}`;
    insertVideo.run(title, `${slugify(title)}-${id}`, 1 + random.int(channels), random.chance(0.95) ? past(700) : null);
  }

  const insertChatChannel = db.prepare("INSERT INTO chat_channels (username, title, subscribers) VALUES (?, ?, ?)");
  const insertChat = db.prepare(
    "INSERT INTO chats (username, title, members, bot_active, protected_since, messages_checked, spam_blocked) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const chats = Math.max(10, Math.round(scale / 500));
  for (let i = 1; i <= chats; i++) {
    const word = random.pick(HANDLE_WORDS);
    insertChatChannel.run(`${word}_channel_${i}`, `${word[0]!.toUpperCase()}${word.slice(1)} channel ${i}`, random.pareto(0.9, 500_000) * 10);
    const active = random.chance(0.7);
    const checked = active ? random.pareto(0.6, 5_000_000) * 20 : 0;
    const title = i === 2 ? HOSTILE_NAMES[8]! : `${random.pick(["Арбитраж", "Crypto", "Jobs", "Беттинг", "Traders"])} chat ${i}`;
    insertChat.run(
      `${word}_chat_${i}`,
      title,
      random.pareto(0.9, 200_000) * 5,
      active ? 1 : 0,
      active ? past(600) : null,
      checked,
      Math.floor(checked * random.next() * 0.05),
    );
  }

  const insertPost = db.prepare("INSERT INTO blog_posts (title, slug, excerpt, published_at) VALUES (?, ?, ?, ?)");
  const posts = Math.max(10, Math.round(scale / 1000));
  for (let id = 1; id <= posts; id++) {
    const title = `${random.pick(BLOG_TOPICS)}${id > BLOG_TOPICS.length ? ` (part ${id})` : ""}`;
    insertPost.run(title, `${slugify(title)}-${id}`, random.chance(0.8) ? `${title}. What we saw and what to do.` : null, past(720));
  }

  const insertRule = db.prepare(
    "INSERT INTO detection_rules (name, kind, pattern, category, weight, enabled, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const rules = 40 + Math.round(scale / 20000);
  for (let id = 1; id <= rules; id++) {
    const kind = random.pick(RULE_KINDS);
    const word = random.pick(HANDLE_WORDS);
    const pattern =
      kind === "regex" ? `(?i)\\b${word}\\s*(bonus|profit|\\d+%)` : kind === "link_domain" ? `${word}-${random.int(99)}.example` : kind === "username_pattern" ? `^${word}_?\\d{2,}$` : word;
    insertRule.run(`${kind} ${word} ${id}`, kind, pattern, random.chance(0.9) ? random.pick(CATEGORIES) : null, Math.round(random.next() * 20) / 10 + 0.1, random.chance(0.85) ? 1 : 0, past(300));
  }

  importFingerprintLibrary(db);
}
