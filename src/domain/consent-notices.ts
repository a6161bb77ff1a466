/**
 * The consent notices (DPDP Act 2023 §5–6): what a person reads before granting a purpose.
 * Every consent event cites the notice version it was given under, so a published version is
 * never edited: a material change is a new version, and the old one stays here so that past
 * receipts can still be read against the text the person actually saw.
 *
 * Grants must cite the current version (consent has to be informed by the notice in force);
 * a withdrawal may cite any published version, since withdrawing must never be harder than
 * granting (§6(4)).
 */
import type { ConsentPurpose } from './consent-purposes';
import { DEFAULT_NOTICE_LANGUAGE, type NoticeLanguage } from './notice-languages';

export type PurposeNotice = {
  purpose: ConsentPurpose;
  title: string;
  /** The personal data used for this purpose. */
  data: string;
  /** Why, and what the person gets or loses by granting. */
  use: string;
  /** How to withdraw, and what withdrawing does. */
  withdraw: string;
  /** How to complain about this processing, to the DPO and then the Data Protection Board (v2 on). */
  complain?: string;
};

/** The text of a notice in one language. */
export type NoticeText = {
  fiduciary: string;
  purposes: PurposeNotice[];
  rights: string;
  grievance: string;
};

export type ConsentNotice = {
  version: string;
  publishedAt: string;
  /** The data fiduciary and the general parts of the notice that every purpose shares. */
  fiduciary: string;
  purposes: PurposeNotice[];
  rights: string;
  grievance: string;
  /** Translations (§5(3)); the fields above are the English text. Same purposes, same order. */
  translations?: Partial<Record<NoticeLanguage, NoticeText>>;
};

const V1: ConsentNotice = {
  version: 'v1',
  publishedAt: '2026-10-01T00:00:00.000Z',
  fiduciary:
    'Verification Platform is the data fiduciary for the personal data described here. Each purpose ' +
    'below is optional and separate: you may grant any, all or none of them, and your account, ' +
    'submissions and employer ratings work without any of them. This notice is available in English ' +
    'and, on request to the Data Protection Officer, in any language of the Eighth Schedule to the ' +
    'Constitution.',
  purposes: [
    {
      purpose: 'ai_evaluation',
      title: 'AI evaluation of your submissions',
      data:
        'The text, files, repository link and commit history you submit for a milestone, and the rubric of ' +
        'the brief.',
      use:
        'An automated model scores your submission against the rubric and checks its integrity ' +
        '(similarity to other submissions, writing-style signals, commit history). The score is ' +
        'shown to you and, after they have rated your work independently, to the employer. It is ' +
        'never the only basis of a decision: the employer rates every submission themselves.',
      withdraw:
        'Withdraw at any time with POST /api/consent (action "revoke"). Submissions made after that go ' +
        'straight to the employer without an AI evaluation; evaluations already made are kept until you ' +
        'ask for erasure.',
    },
    {
      purpose: 'leaderboard',
      title: 'Public leaderboard',
      data:
        'Your display name (or the public alias you choose), your number of certificates per domain and ' +
        'your average employer score.',
      use:
        'These appear on the public leaderboard of each domain you hold certificates in, which anyone ' +
        'can view and which partners may embed on their sites.',
      withdraw:
        'Withdraw at any time with POST /api/consent (action "revoke"). You are removed from every ' +
        'leaderboard at once; copies that others made while you were listed are outside our control.',
    },
    {
      purpose: 'public_verification',
      title: 'Your name on certificate verification',
      data: 'Your name, shown beside each certificate you hold.',
      use:
        'Anyone who has one of your certificate numbers (for example an employer you share it with) can ' +
        'confirm it was issued to you. Without this consent a verification still confirms the ' +
        'certificate, but not whose it is.',
      withdraw:
        'Withdraw at any time with POST /api/consent (action "revoke"). Your name stops appearing on ' +
        'verification at once.',
    },
  ],
  rights:
    'You may see every record we hold about you (GET /api/dsr/access), correct your name or email ' +
    '(PATCH /api/dsr/correction), have your data erased (DELETE /api/dsr/erasure) and nominate a ' +
    'person to exercise these rights if you die or become incapable (POST /api/dsr/nomination). ' +
    'Withdrawing consent does not affect processing that took place before you withdrew.',
  grievance:
    'Complaints go to our Data Protection Officer through POST /api/dsr/grievance; we answer within 90 ' +
    'days. If you are not satisfied with the answer you may complain to the Data Protection Board of ' +
    'India.',
};

const COMPLAIN_EN =
  'Write to our Data Protection Officer (GET /api/dpo) or raise a grievance with POST /api/dsr/grievance; we ' +
  'answer within 90 days. If the answer does not satisfy you, complain to the Data Protection Board of India ' +
  '(https://www.dpb.gov.in) under section 13(3) of the DPDP Act 2023.';
const COMPLAIN_HI =
  'हमारे डेटा संरक्षण अधिकारी (GET /api/dpo) को लिखें या POST /api/dsr/grievance से शिकायत दर्ज करें; हम 90 दिनों ' +
  'के भीतर उत्तर देते हैं। यदि उत्तर से आप संतुष्ट नहीं हैं, तो डीपीडीपी अधिनियम 2023 की धारा 13(3) के अंतर्गत ' +
  'भारतीय डेटा संरक्षण बोर्ड (https://www.dpb.gov.in) से शिकायत करें।';

/**
 * v2: the integrity corpus becomes an explicit, optional purpose (`integrity_corpus`: work enters
 * the corpus partners' checks compare against only while it is granted), every purpose says how
 * to complain to the Board, the notice names the Data Protection Officer, and it is available in Hindi as well as English (the other Eighth Schedule languages
 * slot into `translations` as they are made).
 */
const V2: ConsentNotice = {
  version: 'v2',
  publishedAt: '2026-11-01T00:00:00.000Z',
  fiduciary:
    'Verification Platform is the data fiduciary for the personal data described here. Each purpose ' +
    'below is optional and separate: you may grant any, all or none of them, and your account, ' +
    'submissions and employer ratings work without any of them. Our Data Protection Officer answers ' +
    'questions about this processing (contact: GET /api/dpo). This notice is available in English and ' +
    'Hindi (?lang=hi), and on request to the Data Protection Officer in any other language of the Eighth ' +
    'Schedule to the Constitution.',
  purposes: [
    ...V1.purposes,
    {
      purpose: 'integrity_corpus' as const,
      title: 'Your work in the integrity corpus',
      data:
        'Fingerprints (hashes of short overlapping passages) of the text and files you submit, linked to the ' +
        'submission. Not the text itself.',
      use:
        'Later submissions, on this platform and in partners’ integrity checks (POST /api/v1/integrity/check), ' +
        'are compared against the corpus to detect copying. A match shows the partner only an opaque reference ' +
        'to your submission and the overlapping span, never your name. Without this consent your work is not ' +
        'added to the corpus; your own submissions are still checked against it.',
      withdraw:
        'Withdraw at any time with POST /api/consent (action "revoke"). The fingerprints of all your ' +
        'submissions are removed from the corpus at once, and later work is not added.',
    },
  ].map((p) => ({ ...p, complain: COMPLAIN_EN })),
  rights: V1.rights,
  grievance: COMPLAIN_EN,
  translations: {
    hi: {
      fiduciary:
        'यहाँ वर्णित व्यक्तिगत डेटा के लिए Verification Platform डेटा न्यासी (data fiduciary) है। नीचे दिया गया ' +
        'प्रत्येक प्रयोजन वैकल्पिक और अलग है: आप इनमें से किसी को, सभी को या किसी को भी सहमति नहीं दे सकते, और ' +
        'आपका खाता, आपकी प्रस्तुतियाँ और नियोक्ता की रेटिंग इनके बिना भी काम करती हैं। इस प्रसंस्करण के बारे में ' +
        'प्रश्नों का उत्तर हमारे डेटा संरक्षण अधिकारी देते हैं (संपर्क: GET /api/dpo)। यह सूचना अंग्रेज़ी और हिन्दी ' +
        'में उपलब्ध है, और डेटा संरक्षण अधिकारी से अनुरोध करने पर संविधान की आठवीं अनुसूची की किसी भी अन्य भाषा में।',
      purposes: [
        {
          purpose: 'ai_evaluation',
          title: 'आपकी प्रस्तुतियों का एआई मूल्यांकन',
          data:
            'किसी माइलस्टोन के लिए आपके द्वारा प्रस्तुत पाठ, फ़ाइलें, रिपॉज़िटरी लिंक और कमिट इतिहास, तथा ब्रीफ़ की ' +
            'मूल्यांकन-सूची (रूब्रिक)।',
          use:
            'एक स्वचालित मॉडल रूब्रिक के आधार पर आपकी प्रस्तुति को अंक देता है और उसकी सत्यनिष्ठा जाँचता है ' +
            '(अन्य प्रस्तुतियों से समानता, लेखन-शैली के संकेत, कमिट इतिहास)। अंक आपको दिखाए जाते हैं और, ' +
            'नियोक्ता द्वारा स्वतंत्र रूप से रेटिंग देने के बाद, नियोक्ता को भी। यह कभी किसी निर्णय का एकमात्र ' +
            'आधार नहीं होता: नियोक्ता हर प्रस्तुति को स्वयं रेट करता है।',
          withdraw:
            'POST /api/consent (action "revoke") से कभी भी सहमति वापस लें। उसके बाद की प्रस्तुतियाँ एआई ' +
            'मूल्यांकन के बिना सीधे नियोक्ता के पास जाती हैं; पहले हो चुके मूल्यांकन तब तक रखे जाते हैं जब तक ' +
            'आप उन्हें मिटाने का अनुरोध नहीं करते।',
          complain: COMPLAIN_HI,
        },
        {
          purpose: 'leaderboard',
          title: 'सार्वजनिक लीडरबोर्ड',
          data:
            'आपका प्रदर्शित नाम (या आपका चुना हुआ सार्वजनिक उपनाम), प्रत्येक क्षेत्र में आपके प्रमाणपत्रों की ' +
            'संख्या और नियोक्ताओं द्वारा दिया गया आपका औसत अंक।',
          use:
            'ये उन सभी क्षेत्रों के सार्वजनिक लीडरबोर्ड पर दिखते हैं जिनमें आपके प्रमाणपत्र हैं; इन्हें कोई भी ' +
            'देख सकता है और साझेदार इन्हें अपनी वेबसाइटों पर लगा सकते हैं।',
          withdraw:
            'POST /api/consent (action "revoke") से कभी भी सहमति वापस लें। आपको तुरंत हर लीडरबोर्ड से हटा ' +
            'दिया जाता है; सूची में रहते समय दूसरों द्वारा बनाई गई प्रतियाँ हमारे नियंत्रण में नहीं हैं।',
          complain: COMPLAIN_HI,
        },
        {
          purpose: 'public_verification',
          title: 'प्रमाणपत्र सत्यापन पर आपका नाम',
          data: 'आपका नाम, आपके प्रत्येक प्रमाणपत्र के साथ दिखाया गया।',
          use:
            'जिसके पास आपके प्रमाणपत्र की संख्या है (जैसे कोई नियोक्ता जिसे आप उसे देते हैं), वह पुष्टि कर ' +
            'सकता है कि प्रमाणपत्र आपको जारी हुआ था। इस सहमति के बिना सत्यापन प्रमाणपत्र की पुष्टि करता है, ' +
            'पर यह नहीं बताता कि वह किसका है।',
          withdraw:
            'POST /api/consent (action "revoke") से कभी भी सहमति वापस लें। सत्यापन पर आपका नाम तुरंत दिखना ' +
            'बंद हो जाता है।',
          complain: COMPLAIN_HI,
        },
        {
          purpose: 'integrity_corpus',
          title: 'सत्यनिष्ठा कॉर्पस में आपका कार्य',
          data:
            'आपके द्वारा प्रस्तुत पाठ और फ़ाइलों के फ़िंगरप्रिंट (छोटे, एक-दूसरे पर चढ़ते अंशों के हैश), प्रस्तुति ' +
            'से जुड़े हुए। स्वयं पाठ नहीं।',
          use:
            'बाद की प्रस्तुतियों की, इस प्लेटफ़ॉर्म पर और साझेदारों की सत्यनिष्ठा जाँच (POST /api/v1/integrity/check) ' +
            'में, नकल पकड़ने के लिए इस कॉर्पस से तुलना की जाती है। मेल मिलने पर साझेदार को केवल आपकी प्रस्तुति ' +
            'का एक अपारदर्शी संदर्भ और मिलता-जुलता अंश दिखता है, आपका नाम कभी नहीं। इस सहमति के बिना आपका कार्य ' +
            'कॉर्पस में नहीं जोड़ा जाता; आपकी अपनी प्रस्तुतियाँ फिर भी उससे जाँची जाती हैं।',
          withdraw:
            'POST /api/consent (action "revoke") से कभी भी सहमति वापस लें। आपकी सभी प्रस्तुतियों के फ़िंगरप्रिंट ' +
            'तुरंत कॉर्पस से हटा दिए जाते हैं, और बाद का कार्य नहीं जोड़ा जाता।',
          complain: COMPLAIN_HI,
        },
      ],
      rights:
        'आप हमारे पास आपके बारे में मौजूद हर रिकॉर्ड देख सकते हैं (GET /api/dsr/access), अपना नाम या ईमेल ' +
        'सुधार सकते हैं (PATCH /api/dsr/correction), अपना डेटा मिटवा सकते हैं (DELETE /api/dsr/erasure) और ' +
        'मृत्यु या अक्षमता की स्थिति में इन अधिकारों का प्रयोग करने के लिए किसी व्यक्ति को नामित कर सकते हैं ' +
        '(POST /api/dsr/nomination)। सहमति वापस लेने से पहले हुए प्रसंस्करण पर कोई प्रभाव नहीं पड़ता।',
      grievance: COMPLAIN_HI,
    },
  },
};

/** Every published notice, oldest first. Never edit a published version: add a new one. */
export const CONSENT_NOTICES: readonly ConsentNotice[] = [V1, V2];

export const NOTICE_VERSIONS = CONSENT_NOTICES.map((n) => n.version) as [string, ...string[]];

/** The notice new grants must cite. */
export const CURRENT_NOTICE_VERSION = CONSENT_NOTICES[CONSENT_NOTICES.length - 1]!.version;

export function noticeFor(version: string): ConsentNotice | undefined {
  return CONSENT_NOTICES.find((n) => n.version === version);
}

/** The languages a notice can be read in: English first, then its translations. */
export function noticeLanguages(notice: ConsentNotice): NoticeLanguage[] {
  return [DEFAULT_NOTICE_LANGUAGE, ...(Object.keys(notice.translations ?? {}) as NoticeLanguage[])];
}

/**
 * The notice's text in `lang`, or in English when it has not been translated into `lang` yet
 * (the returned `language` says which; `Content-Language` carries it). Every purpose says how to
 * complain: notices before v2 did so once, in `grievance`, which stands in for it.
 */
export function noticeText(
  notice: ConsentNotice,
  lang: NoticeLanguage = DEFAULT_NOTICE_LANGUAGE,
): { language: NoticeLanguage; text: Required<NoticeText> & { purposes: Required<PurposeNotice>[] } } {
  const translated = lang === DEFAULT_NOTICE_LANGUAGE ? undefined : notice.translations?.[lang];
  const language = translated ? lang : DEFAULT_NOTICE_LANGUAGE;
  const text: NoticeText = translated ?? notice;
  return {
    language,
    text: {
      fiduciary: text.fiduciary,
      purposes: text.purposes.map((p) => ({ ...p, complain: p.complain ?? text.grievance })),
      rights: text.rights,
      grievance: text.grievance,
    },
  };
}
