/**
 * The English strings of the human-facing pages (issue 52): one catalogue per language, the
 * same shape in each (`Catalogue`), so another language is one more file. A function is a
 * message with values in it; templates escape what they return like any other value.
 */
export const en = {
  lang: { code: 'en', name: 'English' },
  site: {
    name: 'Verification Platform',
    tagline: 'Certificates of real work, checked by anyone',
    skip: 'Skip to main content',
    navLabel: 'Site',
    verify: 'Verify a certificate',
    docs: 'API documentation',
    signIn: 'Sign in',
    yourAccount: 'Your certificates',
    changelog: 'Changelog',
    home: 'Home',
    footerAbout:
      'Certificates are signed Open Badges 3.0 credentials: anyone can check them here or with any verifier.',
    languages: 'Languages',
    otherLanguage: 'हिन्दी में देखें',
  },
  common: {
    back: 'Back',
    continue: 'Continue',
    copyLink: 'Copy link',
    copied: 'Link copied.',
    copy: 'Copy',
    copiedText: 'Copied.',
    yes: 'Yes',
    no: 'No',
    notShown: 'Not shown',
    requestId: 'Request id',
    error: 'Error',
    thereIsAProblem: 'There is a problem',
  },
};

/** What every language's catalogue provides: the English one's shape. */
export type Catalogue = typeof en;
