/**
 * The Data Processors that process personal data on the platform's behalf (DPDP Act 2023
 * §8(2), §11(1)(b)). Listed in every access export (`recipients.json`). Keep in step with
 * wrangler.toml's bindings: a new binding to an outside service is a new row here.
 */
export const DATA_PROCESSORS = [
  {
    name: 'Cloudflare, Inc.',
    role: 'Data Processor',
    services:
      'Workers (hosting and running this service), D1 (database), KV (cache), Queues (deferred jobs), R2 (stored files)',
    data: 'Every record in this export: account, consents, sessions, submissions, evaluations, ratings, certificates.',
    since: 'From when your account was created.',
  },
  {
    name: 'Cloudflare, Inc. (Workers AI)',
    role: 'Data Processor',
    services: 'Workers AI (the model that evaluates submissions and estimates AI-written text)',
    data: 'The text and files of submissions you made while consenting to ai_evaluation, and the brief’s rubric.',
    since: 'For each submission evaluated, at its evaluation.',
  },
] as const;

/**
 * Recipients that are not our processors: parties the platform gives personal data to at the
 * person's own request, as separate data fiduciaries. Listed with every consent notice (in the
 * notice's language, English otherwise: `noticeRecipients`) and, for each time data was given, in
 * the access export's `recipients.json`. Not part of a notice's versioned text: a new recipient is
 * a new row here, as a new processor is above.
 */
export const NOTICE_RECIPIENTS = {
  en: [
    {
      name: 'DigiLocker (Ministry of Electronics and Information Technology, Government of India)',
      role: 'Recipient, at your request (a separate data fiduciary)',
      data:
        'When you fetch one of your certificates into DigiLocker: the certificate (its PDF, and its data as XML: ' +
        'your name as on the certificate, the achievement, the issuing organisation, the dates, the certificate ' +
        'number, its verification link and its signed Open Badges credential). DigiLocker sends us the name, date ' +
        'of birth and certificate number you gave it; we check them and keep none of them, only a record that the ' +
        'request was made and what it was answered. Nothing else about you is sent.',
      when:
        'Only when you ask for the certificate in DigiLocker, only while it is valid, while you consent to public ' +
        'verification (public_verification), and while you have not turned DigiLocker off for it ' +
        '(PATCH /api/me/certificates/{certificateNo}/digilocker). Withdrawing the consent, revoking or erasing ' +
        'stops it at once; a copy already in your DigiLocker is DigiLocker’s to keep or delete, at your request to it.',
    },
  ],
  hi: [
    {
      name: 'डिजिलॉकर (इलेक्ट्रॉनिकी और सूचना प्रौद्योगिकी मंत्रालय, भारत सरकार)',
      role: 'प्राप्तकर्ता, आपके अनुरोध पर (एक अलग डेटा न्यासी)',
      data:
        'जब आप अपना कोई प्रमाणपत्र डिजिलॉकर में लाते हैं: वह प्रमाणपत्र (उसकी PDF, और XML में उसका डेटा: ' +
        'प्रमाणपत्र पर लिखा आपका नाम, उपलब्धि, जारी करने वाला संगठन, तिथियाँ, प्रमाणपत्र संख्या, उसकी सत्यापन ' +
        'लिंक और उसका हस्ताक्षरित Open Badges क्रेडेंशियल)। डिजिलॉकर हमें वह नाम, जन्म-तिथि और प्रमाणपत्र संख्या ' +
        'भेजता है जो आपने उसे दी; हम उनकी जाँच करते हैं और उनमें से कुछ भी नहीं रखते, केवल यह रिकॉर्ड कि अनुरोध ' +
        'हुआ और उसका क्या उत्तर दिया गया। आपके बारे में और कुछ नहीं भेजा जाता।',
      when:
        'केवल तब जब आप डिजिलॉकर में प्रमाणपत्र माँगते हैं, केवल तब तक जब तक वह मान्य है, आपकी सार्वजनिक सत्यापन ' +
        '(public_verification) की सहमति बनी है, और आपने उस प्रमाणपत्र के लिए डिजिलॉकर बंद नहीं किया है ' +
        '(PATCH /api/me/certificates/{certificateNo}/digilocker)। सहमति वापस लेने, प्रमाणपत्र रद्द होने या ' +
        'डेटा मिटाने पर यह तुरंत रुक जाता है; आपके डिजिलॉकर में पहले से मौजूद प्रति डिजिलॉकर के पास है, जिसे ' +
        'आपके अनुरोध पर वही रखता या हटाता है।',
    },
  ],
} as const;

export type NoticeRecipient =
  | (typeof NOTICE_RECIPIENTS)['en'][number]
  | (typeof NOTICE_RECIPIENTS)['hi'][number];

/** The recipients in `lang` when translated, else in English. */
export const noticeRecipients = (lang: string): readonly NoticeRecipient[] =>
  lang === 'hi' ? NOTICE_RECIPIENTS.hi : NOTICE_RECIPIENTS.en;
