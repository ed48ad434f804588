/**
 * Word pools for the sample snapshot. They imitate what the real catalog holds: affiliate and ad
 * networks with Latin and Cyrillic names, spammer handles built from bait words, and a handful of
 * deliberately hostile strings that every output must escape.
 */
export const COMPANY_STEMS_LATIN = [
  "Lead", "Click", "Traffic", "Cash", "Profit", "Conver", "Affi", "Partner", "Ad", "Media", "Pay",
  "Bet", "Spin", "Lucky", "Crypto", "Coin", "Trade", "Fx", "Nutri", "Slim", "Job", "Work", "Ton",
  "Pin", "Vulkan", "Royal", "Gold", "Alpha", "Neo", "Zen", "Mega", "Hyper", "Push", "Pop", "Teaser",
];

export const COMPANY_TAILS_LATIN = [
  "Bit", "Gid", "Hub", "Rocket", "Partners", "Network", "Ads", "Media", "Cash", "Pro", "Lab", "Flow",
  "Market", "Leads", "Up", "X", "Boost", "Wave", "Nest", "Point", "Line", "Stream", "Ex", "Zone",
];

export const COMPANY_STEMS_CYRILLIC = [
  "Лид", "Клик", "Трафик", "Профит", "Партнёр", "Бонус", "Крипто", "Ставка", "Удача", "Фортуна",
  "Нутра", "Работа", "Доход", "Рубль", "Монета", "Альфа", "Вулкан", "Золото", "Сигнал", "Ёлка",
];

export const COMPANY_TAILS_CYRILLIC = [
  "Гид", "Маркет", "Сеть", "Партнёры", "Плюс", "Про", "Лаб", "Поток", "Центр", "Групп", "Бит", "Офис",
];

export const COMPANY_SUFFIXES = ["", "", "", " Partners", " Network", " Ads", " Affiliates", " Group", " Team"];

export const TLDS = ["com", "io", "net", "org", "ru", "pro", "biz", "co", "app", "bet"];

export const FIRST_NAMES_LATIN = [
  "Alex", "Maria", "Dmitry", "Elena", "Ivan", "Olga", "Sergey", "Anna", "Max", "Kate", "John",
  "Nina", "Pavel", "Irina", "Artem", "Daria", "Oleg", "Sofia", "Roman", "Vera",
];

export const LAST_NAMES_LATIN = [
  "Petrov", "Ivanova", "Smirnov", "Kuznetsova", "Popov", "Volkova", "Sokolov", "Morozova",
  "Novikov", "Fedorova", "Lebedev", "Kozlova", "Orlov", "Pavlova", "Miller", "Brown",
];

export const FIRST_NAMES_CYRILLIC = ["Алексей", "Мария", "Дмитрий", "Елена", "Иван", "Ольга", "Сергей", "Анна", "Пётр", "Юлия"];
export const LAST_NAMES_CYRILLIC = ["Петров", "Иванова", "Смирнов", "Кузнецова", "Попов", "Волкова", "Соколов", "Орлова", "Фёдоров"];

export const HANDLE_WORDS = [
  "crypto", "invest", "profit", "bonus", "casino", "bet", "win", "rich", "money", "trade", "signal",
  "forex", "job", "work", "remote", "slim", "diet", "promo", "vip", "support", "admin", "manager",
  "official", "help", "news", "free", "gift", "airdrop", "nft", "pump", "lucky", "spin", "jackpot",
  "traffic", "leads", "arb", "cpa", "offer", "team", "hr", "recruit", "shop", "sale", "elena",
  "anna", "max", "alex", "kate", "dima", "olga", "sasha", "boss", "king", "queen", "pro", "top",
];

export const GLOSSARY_TERMS = [
  ["CPA", "Cost per action: the advertiser pays for a defined action such as a sign-up or deposit."],
  ["CPL", "Cost per lead: payment for a collected contact."],
  ["RevShare", "Revenue share: the partner earns a percentage of the player's or buyer's losses or spend."],
  ["Hold", "The period during which a network keeps earned money before paying it out."],
  ["Shave", "Hiding conversions from a partner so the network does not pay for them."],
  ["Cloaking", "Showing moderators one page and real visitors another."],
  ["Arbitrage", "Buying traffic in one place and selling it through offers elsewhere."],
  ["Nutra", "Offers for dietary supplements and health products."],
  ["Postback", "A server-to-server notice that a conversion happened."],
  ["Approve rate", "The share of leads the advertiser accepts."],
  ["Landing", "The page a visitor lands on after clicking an ad."],
  ["Prelanding", "A page shown before the landing to warm the visitor up."],
  ["Spam bot", "An account that posts unsolicited messages in chats, usually automated."],
  ["Drainer", "A phishing kit that empties crypto wallets once the victim signs a transaction."],
  ["Scam", "A fraudulent scheme designed to take money under false pretences."],
  ["Fingerprint", "A set of technical signals that identifies a browser or client."],
  ["JA4", "A TLS client fingerprint format that sorts extensions, so it survives their shuffling."],
  ["Pig butchering", "A long con that builds trust before steering the victim into a fake investment."],
] as const;

export const BLOG_TOPICS = [
  "How to spot a fake recruiter in Telegram",
  "Why crypto signal channels keep asking for deposits",
  "What our spam bot blocked this month",
  "Affiliate networks that hold payouts: a field guide",
  "Ten signs a job offer is a scam",
  "Reading a company card: reports, trends and aliases",
  "How fingerprinting tells browsers from bots",
  "Protecting a chat with the moderation bot",
  "The weekly open-data dump explained",
  "Nutra offers and the comments they buy",
];

export const VIDEO_TOPICS = [
  "Scam breakdown", "Live review", "Network payouts", "Bot protection setup", "Crypto drainers",
  "Fake jobs", "Casino streamers", "Traffic sources", "Anti-fraud basics", "Q&A",
];

export const RULE_KINDS = ["regex", "keyword", "link_domain", "username_pattern"] as const;

/**
 * Strings that must come out escaped everywhere: markup, quotes and ampersands, spreadsheet
 * formula triggers, control characters, emoji and right-to-left text.
 */
export const HOSTILE_NAMES = [
  `<script>alert("x")</script> Partners`,
  `Tom & Jerry's "Best" Ads`,
  `=HYPERLINK("http://evil.example","click")`,
  `+1 Bonus Network`,
  `-2 Leads`,
  `@admin Media`,
  "Bell\u0007Tab\tNull\u0000 Co",
  "🎰 Jackpot 🚀 Hub",
  "\u202eevil\u202c Reverse Ads",
  "شبكة الربح Partners",
  "רשת פרסום",
  "<img src=x onerror=alert(1)>",
];
