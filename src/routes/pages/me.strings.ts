/**
 * The strings of the holder's home (`/me`), one catalogue per language of the same shape, like the
 * pages' catalogues (src/routes/pages/i18n). The banner after a form is chosen by a key in the
 * redirect's query (`?notice=…`, `?error=…`), so no text from the request is ever shown.
 */
import type { Lang } from './i18n';

const en = {
  title: 'Your account',
  signInTitle: 'Sign in to your account',
  signInLead:
    'Your certificates, your learner record, the applications you allowed and your consents are here once you sign in.',
  email: 'Email address',
  password: 'Password',
  signIn: 'Sign in',
  signOut: 'Sign out',
  hello: (name: string) => `Hello, ${name}`,
  onThisPage: 'On this page',
  success: 'Done',
  problem: 'There is a problem',
  notices: {
    'signed-in': 'You are signed in.',
    'signed-out': 'You are signed out.',
    'consent-granted': 'Consent granted. It takes effect at once.',
    'consent-withdrawn': 'Consent withdrawn. It takes effect at once.',
    'alias-saved': 'Your leaderboard alias is saved.',
    'alias-cleared': 'Your leaderboard alias is cleared: the leaderboard shows your name.',
    'application-revoked': 'Access revoked: the application’s tokens no longer work.',
    'confirmation-sent': 'A new confirmation link is on its way to your email address.',
    'digilocker-on': 'DigiLocker fetching is on for that certificate.',
    'digilocker-off':
      'DigiLocker fetching is off for that certificate: DigiLocker is refused it from now on.',
  },
  errors: {
    'sign-in-failed': 'Sign-in failed: check your email address and password.',
    'sign-in-required': 'Sign in to see your certificates and settings.',
    'too-many': 'Too many attempts. Wait a few minutes, then try again.',
    'alias-invalid':
      'That alias cannot be used: 2 to 40 letters, digits, spaces or ordinary punctuation, in one script, without control or invisible characters.',
    'application-unknown':
      'That application has no access to your account (it may have been revoked already).',
    'already-confirmed': 'Your email address is confirmed already.',
    'guardian-required': 'A parent or lawful guardian gives this consent for an account of someone under 18.',
    'certificate-unknown': 'You hold no certificate with that number.',
    'offer-unavailable': 'Only an active, signed certificate can be added to a wallet.',
    failed: 'That did not work. Try again; if it keeps failing, contact us.',
  },
  guardianWait:
    'Your account belongs to someone under 18: a parent or lawful guardian must approve it before you can use it. We have asked the guardian you named.',
  certificates: {
    heading: 'Certificates',
    none: 'You hold no certificates yet. They appear here when an employer’s verified organisation issues them.',
    by: (organisation: string) => `by ${organisation}`,
    issuerUnnamed: 'Issuer not named',
    number: 'Certificate number',
    status: 'Status',
    issued: 'Issued',
    validUntil: 'Valid until',
    page: 'Certificate page',
    pdf: 'PDF',
    png: 'Badge (PNG)',
    svg: 'Badge (SVG)',
    of: (no: string) => ` of ${no}`,
    states: {
      active: 'Valid',
      revoked: 'Revoked',
      expired: 'Expired',
      suspended: 'Suspended: the issuer’s organisation is under review',
      pending_issuer: 'Waiting for the issuer’s organisation to be verified',
    } as Record<string, string>,
  },
  record: {
    heading: 'Learner record',
    body: 'All your valid certificates in one signed record (1EdTech Comprehensive Learner Record 2.0, a VC-JWT), for a wallet or another platform.',
    download: 'Download your learner record',
    unavailable: 'Available once you hold a certificate that is neither revoked nor expired.',
  },
  publicName: {
    heading: 'Your public name',
    verifierSees: 'Someone verifying your certificate sees',
    notShown: 'Not shown',
    shownBody:
      'Your name is shown beside your certificates while you consent to public verification. Withdraw that consent to hide it; the certificates stay verifiable.',
    hiddenBody:
      'Verifiers can confirm your certificates but not that they are yours. Show your name to have it shown beside them.',
    show: 'Show my name to verifiers',
    hide: 'Hide my name from verifiers',
    alias: 'Leaderboard alias',
    aliasHint:
      'Shown instead of your name on the public leaderboard, while you consent to the leaderboard. Leave it empty to use your name: while verifiers also see your name, the leaderboard then links it to your latest certificate.',
    save: 'Save alias',
  },
  consents: {
    heading: 'Consents',
    lead: 'Each is optional and separate; a change takes effect at once.',
    notice: 'Read the full notice',
    state: { granted: 'Granted', revoked: 'Withdrawn', never: 'Not granted' },
    since: 'since',
    data: 'Data used:',
    grant: 'Grant',
    withdraw: 'Withdraw',
    consentTo: (title: string) => ` consent: ${title}`,
  },
  applications: {
    heading: 'Connected applications',
    none: 'No application has access to your account. When you allow one on its authorization page, it appears here and you can revoke it.',
    selfNamed: '(name given by the application itself)',
    may: 'It may:',
    allowed: 'Allowed',
    renewed: 'last renewed its access',
    revoke: 'Revoke access',
    of: (name: string) => ` of ${name}`,
  },
  wallets: {
    heading: 'Wallets',
    lead: 'Add a certificate to a digital wallet app that speaks OpenID for Verifiable Credential Issuance (OID4VCI): the page that opens shows a QR code to scan with the wallet and a code to type into it.',
    add: 'Add to a wallet',
    none: 'Only an active, signed certificate can be added to a wallet.',
    unavailable: 'Not active: it cannot be added to a wallet.',
    offerTitle: 'Add your certificate to a wallet',
    offerLead: (title: string) => `Scan this QR code with your wallet app to add “${title}”.`,
    qrLabel: 'QR code of the credential offer',
    link: 'Or open this link on the device that has the wallet:',
    txCode: 'When the wallet asks for a transaction code, type:',
    expiry: 'The offer works once and expires in 10 minutes. After that, ask for a new one from your page.',
    expiresAt: 'It expires at',
    back: 'Back to your account',
  },
  digilocker: {
    heading: 'DigiLocker',
    notConfigured:
      'This service is not set up as a DigiLocker issuer, so your certificates cannot be fetched into DigiLocker from here.',
    lead: 'You can fetch a certificate into DigiLocker yourself: in the DigiLocker app, search for the issuer’s document type, and enter the certificate number in the field UDF1. DigiLocker checks your name and date of birth against your account.',
    documentType: 'Document type',
    udf1: 'Number to enter (UDF1)',
    state: 'DigiLocker',
    available: 'Can be fetched',
    reasons: {
      disabled: 'Turned off by you',
      not_valid: 'Not active: it cannot be fetched',
      no_public_verification_consent: 'Needs your consent to public verification (above)',
    } as Record<string, string>,
    turnOff: 'Turn DigiLocker fetching off',
    turnOn: 'Turn DigiLocker fetching on',
    of: (no: string) => ` for ${no}`,
  },
  emailSection: {
    heading: 'Email address',
    confirmed: 'Confirmed',
    unconfirmed: 'Not confirmed',
    pending: 'Waiting for confirmation:',
    pendingHint: '(open the link mailed to it)',
    resendHint:
      'Open the link we mailed you to confirm it. No mail? Ask for a new link (at most three an hour).',
    resend: 'Send a new confirmation link',
  },
  session: { heading: 'Session' },
  refused: {
    title: 'This form was not sent from this site',
    body: 'Forms of your account work only from this site’s own pages. Open the page again and send it from there.',
    back: 'Back to your account',
  },
};

export type MeCatalogue = typeof en;

const hi: MeCatalogue = {
  title: 'आपका खाता',
  signInTitle: 'अपने खाते में साइन इन करें',
  signInLead:
    'साइन इन करने पर यहाँ आपके प्रमाणपत्र, आपका लर्नर रिकॉर्ड, आपके द्वारा अनुमति दिए गए ऐप्लिकेशन और आपकी सहमतियाँ दिखेंगी।',
  email: 'ईमेल पता',
  password: 'पासवर्ड',
  signIn: 'साइन इन करें',
  signOut: 'साइन आउट करें',
  hello: (name: string) => `नमस्ते, ${name}`,
  onThisPage: 'इस पेज पर',
  success: 'हो गया',
  problem: 'एक समस्या है',
  notices: {
    'signed-in': 'आप साइन इन हैं।',
    'signed-out': 'आप साइन आउट हो गए हैं।',
    'consent-granted': 'सहमति दी गई। यह तुरंत लागू होती है।',
    'consent-withdrawn': 'सहमति वापस ली गई। यह तुरंत लागू होता है।',
    'alias-saved': 'आपका लीडरबोर्ड उपनाम सहेजा गया।',
    'alias-cleared': 'आपका लीडरबोर्ड उपनाम हटा दिया गया: लीडरबोर्ड आपका नाम दिखाता है।',
    'application-revoked': 'पहुँच रद्द की गई: ऐप्लिकेशन के टोकन अब काम नहीं करते।',
    'confirmation-sent': 'पुष्टि का नया लिंक आपके ईमेल पते पर भेजा जा रहा है।',
    'digilocker-on': 'उस प्रमाणपत्र के लिए डिजीलॉकर में लाना चालू है।',
    'digilocker-off': 'उस प्रमाणपत्र के लिए डिजीलॉकर में लाना बंद है: अब से डिजीलॉकर को यह नहीं दिया जाएगा।',
  },
  errors: {
    'sign-in-failed': 'साइन इन नहीं हो सका: अपना ईमेल पता और पासवर्ड जाँचें।',
    'sign-in-required': 'अपने प्रमाणपत्र और सेटिंग देखने के लिए साइन इन करें।',
    'too-many': 'बहुत अधिक प्रयास। कुछ मिनट रुककर फिर कोशिश करें।',
    'alias-invalid':
      'यह उपनाम नहीं लिया जा सकता: 2 से 40 अक्षर, अंक, रिक्त स्थान या सामान्य विराम चिह्न, एक ही लिपि में, बिना नियंत्रण या अदृश्य वर्णों के।',
    'application-unknown': 'इस ऐप्लिकेशन को आपके खाते तक पहुँच नहीं है (शायद पहले ही रद्द की जा चुकी है)।',
    'already-confirmed': 'आपके ईमेल पते की पुष्टि पहले ही हो चुकी है।',
    'guardian-required': '18 वर्ष से कम आयु के व्यक्ति के खाते के लिए यह सहमति माता-पिता या वैध अभिभावक देते हैं।',
    'certificate-unknown': 'उस संख्या का कोई प्रमाणपत्र आपके पास नहीं है।',
    'offer-unavailable': 'केवल सक्रिय, हस्ताक्षरित प्रमाणपत्र ही वॉलेट में जोड़ा जा सकता है।',
    failed: 'यह नहीं हो सका। फिर कोशिश करें; बार-बार विफल हो तो हमसे संपर्क करें।',
  },
  guardianWait:
    'आपका खाता 18 वर्ष से कम आयु के व्यक्ति का है: उपयोग से पहले माता-पिता या वैध अभिभावक को इसे स्वीकृत करना होगा। हमने आपके बताए अभिभावक से अनुरोध किया है।',
  certificates: {
    heading: 'प्रमाणपत्र',
    none: 'अभी आपके पास कोई प्रमाणपत्र नहीं है। किसी नियोक्ता का सत्यापित संगठन जारी करेगा तो वे यहाँ दिखेंगे।',
    by: (organisation: string) => `जारीकर्ता: ${organisation}`,
    issuerUnnamed: 'जारीकर्ता का नाम नहीं',
    number: 'प्रमाणपत्र संख्या',
    status: 'स्थिति',
    issued: 'जारी',
    validUntil: 'वैध',
    page: 'प्रमाणपत्र पेज',
    pdf: 'PDF',
    png: 'बैज (PNG)',
    svg: 'बैज (SVG)',
    of: (no: string) => ` (${no})`,
    states: {
      active: 'वैध',
      revoked: 'रद्द',
      expired: 'समाप्त',
      suspended: 'निलंबित: जारीकर्ता संगठन की समीक्षा हो रही है',
      pending_issuer: 'जारीकर्ता संगठन के सत्यापन की प्रतीक्षा',
    },
  },
  record: {
    heading: 'लर्नर रिकॉर्ड',
    body: 'आपके सभी वैध प्रमाणपत्र एक हस्ताक्षरित रिकॉर्ड में (1EdTech Comprehensive Learner Record 2.0, एक VC-JWT), किसी वॉलेट या दूसरे प्लेटफ़ॉर्म के लिए।',
    download: 'अपना लर्नर रिकॉर्ड डाउनलोड करें',
    unavailable: 'ऐसा प्रमाणपत्र होने पर उपलब्ध जो न रद्द हो न समाप्त।',
  },
  publicName: {
    heading: 'आपका सार्वजनिक नाम',
    verifierSees: 'आपके प्रमाणपत्र का सत्यापन करने वाले को दिखता है',
    notShown: 'नहीं दिखाया जाता',
    shownBody:
      'सार्वजनिक सत्यापन की सहमति रहने तक आपका नाम आपके प्रमाणपत्रों के साथ दिखता है। नाम छिपाने के लिए वह सहमति वापस लें; प्रमाणपत्र सत्यापित होते रहेंगे।',
    hiddenBody:
      'सत्यापन करने वाले आपके प्रमाणपत्रों की पुष्टि कर सकते हैं, पर यह नहीं कि वे आपके हैं। नाम दिखाने के लिए नीचे का बटन दबाएँ।',
    show: 'सत्यापन करने वालों को मेरा नाम दिखाएँ',
    hide: 'सत्यापन करने वालों से मेरा नाम छिपाएँ',
    alias: 'लीडरबोर्ड उपनाम',
    aliasHint:
      'लीडरबोर्ड की सहमति रहने तक सार्वजनिक लीडरबोर्ड पर आपके नाम की जगह दिखता है। अपना नाम दिखाने के लिए खाली छोड़ें: जब तक सत्यापन करने वालों को भी आपका नाम दिखता है, लीडरबोर्ड उसे आपके नवीनतम प्रमाणपत्र से जोड़ता है।',
    save: 'उपनाम सहेजें',
  },
  consents: {
    heading: 'सहमतियाँ',
    lead: 'हर सहमति वैकल्पिक और अलग है; बदलाव तुरंत लागू होता है।',
    notice: 'पूरी सूचना पढ़ें',
    state: { granted: 'दी गई', revoked: 'वापस ली गई', never: 'नहीं दी गई' },
    since: 'से',
    data: 'उपयोग होने वाला डेटा:',
    grant: 'सहमति दें',
    withdraw: 'वापस लें',
    consentTo: (title: string) => ` सहमति: ${title}`,
  },
  applications: {
    heading: 'जुड़े हुए ऐप्लिकेशन',
    none: 'किसी ऐप्लिकेशन को आपके खाते तक पहुँच नहीं है। उसके प्राधिकरण पेज पर अनुमति देने पर वह यहाँ दिखेगा और आप उसे रद्द कर सकेंगे।',
    selfNamed: '(नाम ऐप्लिकेशन ने स्वयं दिया है)',
    may: 'इसे अनुमति है:',
    allowed: 'अनुमति दी गई',
    renewed: 'पिछली बार पहुँच नवीनीकृत की',
    revoke: 'पहुँच रद्द करें',
    of: (name: string) => ` (${name})`,
  },
  wallets: {
    heading: 'वॉलेट',
    lead: 'किसी प्रमाणपत्र को ऐसे डिजिटल वॉलेट ऐप में जोड़ें जो OpenID for Verifiable Credential Issuance (OID4VCI) समझता हो: खुलने वाले पेज पर वॉलेट से स्कैन करने के लिए QR कोड और उसमें टाइप करने के लिए एक कोड दिखेगा।',
    add: 'वॉलेट में जोड़ें',
    none: 'केवल सक्रिय, हस्ताक्षरित प्रमाणपत्र ही वॉलेट में जोड़ा जा सकता है।',
    unavailable: 'सक्रिय नहीं: इसे वॉलेट में नहीं जोड़ा जा सकता।',
    offerTitle: 'अपना प्रमाणपत्र वॉलेट में जोड़ें',
    offerLead: (title: string) => `“${title}” जोड़ने के लिए अपने वॉलेट ऐप से यह QR कोड स्कैन करें।`,
    qrLabel: 'क्रेडेंशियल ऑफ़र का QR कोड',
    link: 'या जिस डिवाइस पर वॉलेट है उस पर यह लिंक खोलें:',
    txCode: 'जब वॉलेट लेन-देन कोड (transaction code) माँगे, तो टाइप करें:',
    expiry: 'यह ऑफ़र एक ही बार काम करता है और 10 मिनट में समाप्त हो जाता है। उसके बाद अपने पेज से नया ऑफ़र लें।',
    expiresAt: 'समाप्ति',
    back: 'अपने खाते पर वापस जाएँ',
  },
  digilocker: {
    heading: 'डिजीलॉकर',
    notConfigured:
      'यह सेवा डिजीलॉकर जारीकर्ता के रूप में स्थापित नहीं है, इसलिए आपके प्रमाणपत्र यहाँ से डिजीलॉकर में नहीं लाए जा सकते।',
    lead: 'आप स्वयं किसी प्रमाणपत्र को डिजीलॉकर में ला सकते हैं: डिजीलॉकर ऐप में जारीकर्ता का दस्तावेज़ प्रकार खोजें और UDF1 फ़ील्ड में प्रमाणपत्र संख्या डालें। डिजीलॉकर आपका नाम और जन्म तिथि आपके खाते से मिलाता है।',
    documentType: 'दस्तावेज़ प्रकार',
    udf1: 'डालने की संख्या (UDF1)',
    state: 'डिजीलॉकर',
    available: 'लाया जा सकता है',
    reasons: {
      disabled: 'आपने बंद किया है',
      not_valid: 'सक्रिय नहीं: लाया नहीं जा सकता',
      no_public_verification_consent: 'सार्वजनिक सत्यापन के लिए आपकी सहमति चाहिए (ऊपर)',
    } as Record<string, string>,
    turnOff: 'डिजीलॉकर में लाना बंद करें',
    turnOn: 'डिजीलॉकर में लाना चालू करें',
    of: (no: string) => ` (${no})`,
  },
  emailSection: {
    heading: 'ईमेल पता',
    confirmed: 'पुष्टि हो गई',
    unconfirmed: 'पुष्टि नहीं हुई',
    pending: 'पुष्टि की प्रतीक्षा:',
    pendingHint: '(उस पर भेजा गया लिंक खोलें)',
    resendHint: 'पुष्टि के लिए हमारे भेजे ईमेल का लिंक खोलें। ईमेल नहीं मिला? नया लिंक माँगें (एक घंटे में अधिकतम तीन)।',
    resend: 'पुष्टि का नया लिंक भेजें',
  },
  session: { heading: 'सत्र' },
  refused: {
    title: 'यह फ़ॉर्म इस साइट से नहीं भेजा गया',
    body: 'आपके खाते के फ़ॉर्म केवल इसी साइट के पेजों से काम करते हैं। पेज फिर से खोलकर वहीं से भेजें।',
    back: 'अपने खाते पर लौटें',
  },
};

const CATALOGUES: Record<Lang, MeCatalogue> = { en, hi };

/** The strings of `/me` in a language. */
export const meStrings = (lang: Lang): MeCatalogue => CATALOGUES[lang];

export type NoticeKey = keyof MeCatalogue['notices'];
export type ErrorKey = keyof MeCatalogue['errors'];

export const isNoticeKey = (key: string | undefined): key is NoticeKey =>
  key !== undefined && Object.hasOwn(en.notices, key);

export const isErrorKey = (key: string | undefined): key is ErrorKey =>
  key !== undefined && Object.hasOwn(en.errors, key);

/** The consent purposes a holder manages on the page, in the order shown. */
export const HOME_PURPOSES = ['public_verification', 'leaderboard', 'ai_evaluation'] as const;
export type HomePurpose = (typeof HOME_PURPOSES)[number];
