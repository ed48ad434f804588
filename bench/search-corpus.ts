/**
 * A deterministic, realistic corpus for bench/search.ts: searchable entities of the eight global
 * types (Latin and Cyrillic names, aliases, domains, usernames) and a million spammer usernames.
 * Names come from syllables and word pools, so near-duplicates are common, as in the real catalog:
 * that is what makes typo search hard.
 */
import type { GlobalSearchEntity } from "../core/search/global-index.ts";

/** mulberry32: small, seedable, the same on every machine. */
export function createRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[int(items.length)]!,
    /** Heavy-tailed popularity: most values small, a few large. */
    popularity: (max: number) => Math.floor(max * next() ** 6),
  };
}
export type BenchRandom = ReturnType<typeof createRandom>;

const LATIN_SYLLABLES = ("bi nan ce kra to vex lum zo mir tek sol ar ion pay coin tra de max no va sta ri " +
  "lo gi fin ex al pha net ro ka zen bo ly qu ant mo ne ta vi da sky blu gold ver ti cor").split(" ");
const CYRILLIC_SYLLABLES = ("сбер банк ти нь ко фф я ндекс аль фа ве тб газ про м ро стел мо ре ка за ли " +
  "на то ри ви ста мир зо ло то кри пто би ржа де нь ги лу ч пла тё ж").split(" ");
const LATIN_WORDS = ("capital group exchange partners bank trade invest crypto media market pro online " +
  "finance global systems network digital labs signals wallet club academy").split(" ");
const CYRILLIC_WORDS = ("капитал групп биржа партнёры банк трейд инвест крипто медиа маркет онлайн финанс " +
  "сеть сигналы кошелёк клуб академия заработок доход").split(" ");
const FIRST_LATIN = ("alex maria dmitry elena ivan olga sergey anna max kate john nina pavel irina artem daria " +
  "oleg sofia roman vera mikhail tatiana nikita yulia boris").split(" ");
const LAST_LATIN = ("petrov ivanova smirnov kuznetsova popov volkova sokolov morozova novikov fedorova lebedev " +
  "kozlova orlov pavlova miller brown zaitsev belova kovalenko shevchenko").split(" ");
const FIRST_CYRILLIC = "алексей мария дмитрий елена иван ольга сергей анна пётр юлия михаил татьяна никита борис".split(" ");
const LAST_CYRILLIC = "петров иванова смирнов кузнецова попов волкова соколов орлова фёдоров зайцев белова ковалёв".split(" ");
const TOPIC_WORDS = ("how to spot fake recruiter telegram scam crypto signal deposit affiliate payout bot chat " +
  "review guide warning fraud investment airdrop wallet phishing").split(" ");
const TOPIC_CYRILLIC = "как распознать мошенников телеграм схема развод обзор предупреждение вклад выплаты".split(" ");
const TLDS = ["com", "io", "net", "ru", "pro", "org"];

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Type shares of the 100 000 entities. */
const TYPE_SHARES: ReadonlyArray<readonly [string, number]> = [
  ["company", 0.3], ["person", 0.15], ["glossary", 0.03], ["video", 0.2],
  ["video_channel", 0.05], ["chat_channel", 0.1], ["chat", 0.12], ["blog_post", 0.05],
];

export function createBenchEntities(count: number, seed = 1): GlobalSearchEntity[] {
  const random = createRandom(seed);
  const brand = (cyrillic: boolean) => {
    const pool = cyrillic ? CYRILLIC_SYLLABLES : LATIN_SYLLABLES;
    let name = "";
    for (let n = 2 + random.int(3); n > 0; n--) name += random.pick(pool);
    return name;
  };
  const makers: Record<string, (i: number) => Omit<GlobalSearchEntity, "type" | "url">> = {
    company: () => {
      const cyrillic = random.chance(0.35);
      const base = capitalize(brand(cyrillic));
      const title = random.chance(0.4) ? `${base} ${capitalize(random.pick(cyrillic ? CYRILLIC_WORDS : LATIN_WORDS))}` : base;
      const domain = `${cyrillic ? "" : base.toLowerCase()}${cyrillic ? brand(false) : ""}.${random.pick(TLDS)}`;
      const keys = [domain];
      if (random.chance(0.3)) keys.push(`${base} ${capitalize(random.pick(LATIN_WORDS))}`);
      return { title, subtitle: "Company", keys, rank: random.popularity(5000) };
    },
    person: () => {
      const cyrillic = random.chance(0.4);
      const title = cyrillic
        ? `${capitalize(random.pick(FIRST_CYRILLIC))} ${capitalize(random.pick(LAST_CYRILLIC))}`
        : `${capitalize(random.pick(FIRST_LATIN))} ${capitalize(random.pick(LAST_LATIN))}`;
      return { title, subtitle: "Person", rank: random.popularity(800) };
    },
    glossary: () => ({ title: capitalize(`${brand(false)} ${random.pick(LATIN_WORDS)}`), subtitle: "Term" }),
    video: () => ({ title: topic(random), subtitle: "Video", rank: random.popularity(100_000) }),
    video_channel: () => ({ title: `${capitalize(brand(random.chance(0.3)))} TV`, subtitle: "Channel", rank: random.popularity(50_000) }),
    chat_channel: () => {
      const name = brand(random.chance(0.4));
      return { title: `${capitalize(name)} ${random.pick(random.chance(0.5) ? LATIN_WORDS : CYRILLIC_WORDS)}`, subtitle: "Channel", keys: [`@${name}_channel`], rank: random.popularity(200_000) };
    },
    chat: () => {
      const name = brand(false);
      return { title: `${capitalize(name)} chat`, subtitle: "Chat", keys: [`@${name}_chat`], rank: random.popularity(20_000) };
    },
    blog_post: () => ({ title: topic(random), subtitle: "Post" }),
  };
  const entities: GlobalSearchEntity[] = [];
  const seen = new Set<string>();
  for (const [type, share] of TYPE_SHARES) {
    const n = Math.round(count * share);
    for (let i = 0; i < n; i++) {
      let entity = makers[type]!(i);
      // Titles are unique within a type, so "the intended item" of a query is well defined.
      while (seen.has(`${type}:${entity.title.toLowerCase()}`)) entity = { ...entity, title: `${entity.title} ${capitalize(brand(false))}` };
      seen.add(`${type}:${entity.title.toLowerCase()}`);
      entities.push({ type, url: `/${type}/${i}`, ...entity });
    }
  }
  return entities;
}

function topic(random: BenchRandom): string {
  const pool = random.chance(0.3) ? TOPIC_CYRILLIC : TOPIC_WORDS;
  const words: string[] = [];
  for (let n = 3 + random.int(4); n > 0; n--) words.push(random.pick(pool));
  return capitalize(words.join(" "));
}

const HANDLE_WORDS = ("crypto invest profit bonus casino bet win rich money trade signal forex job work remote slim " +
  "diet promo vip support admin manager official help news free gift airdrop nft pump lucky spin jackpot traffic " +
  "leads arb cpa offer team hr recruit shop sale elena anna max alex kate dima olga sasha boss king queen pro top").split(" ");

/** `count` unique usernames (^[a-z0-9_]{1,64}$) with heavy-tailed report counts. */
export function createBenchUsernames(count: number, seed = 2): { username: string; reportsCount: number }[] {
  const random = createRandom(seed);
  const used = new Set<string>();
  const out: { username: string; reportsCount: number }[] = [];
  while (out.length < count) {
    let name = random.pick(HANDLE_WORDS);
    if (random.chance(0.7)) name += (random.chance(0.5) ? "_" : "") + random.pick(HANDLE_WORDS);
    if (random.chance(0.3)) name += random.pick(LATIN_SYLLABLES);
    if (random.chance(0.6)) name += random.int(random.chance(0.5) ? 100 : 100_000);
    if (random.chance(0.1)) name += "_bot";
    if (used.has(name)) name += `_${out.length.toString(36)}`;
    used.add(name);
    out.push({ username: name, reportsCount: 1 + random.popularity(2000) });
  }
  return out;
}
