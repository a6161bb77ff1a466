import type { Catalogue } from './en';

/** The Hindi strings of the human-facing pages: the same keys as en.ts. */
export const hi: Catalogue = {
  lang: { code: 'hi', name: 'हिन्दी' },
  site: {
    name: 'सत्यापन प्लेटफ़ॉर्म',
    tagline: 'असली काम के प्रमाणपत्र, जिन्हें कोई भी जाँच सकता है',
    skip: 'मुख्य सामग्री पर जाएँ',
    navLabel: 'साइट',
    verify: 'प्रमाणपत्र सत्यापित करें',
    docs: 'API दस्तावेज़',
    signIn: 'साइन इन करें',
    yourAccount: 'आपके प्रमाणपत्र',
    changelog: 'बदलावों का ब्योरा',
    home: 'मुखपृष्ठ',
    footerAbout:
      'प्रमाणपत्र हस्ताक्षरित Open Badges 3.0 क्रेडेंशियल हैं: कोई भी उन्हें यहाँ या किसी भी सत्यापक से जाँच सकता है।',
    languages: 'भाषाएँ',
    otherLanguage: 'View in English',
  },
  common: {
    back: 'वापस',
    continue: 'आगे बढ़ें',
    copyLink: 'लिंक कॉपी करें',
    copied: 'लिंक कॉपी हो गया।',
    copy: 'कॉपी करें',
    copiedText: 'कॉपी हो गया।',
    yes: 'हाँ',
    no: 'नहीं',
    notShown: 'नहीं दिखाया गया',
    requestId: 'अनुरोध आईडी',
    error: 'त्रुटि',
    thereIsAProblem: 'कोई समस्या है',
  },
};
