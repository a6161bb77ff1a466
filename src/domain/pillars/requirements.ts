/**
 * The requirement reader: a brief read as a list of asks, as an expert reader would list them.
 *
 * - **Asks.** List items, sentences, and the clauses of a sentence joined by semicolons, by
 *   commas or by "and" when the next clause opens with a verb ("shortlist three venues …,
 *   prepare a budget … and draft a run-of-show …"). Each ask is a verbatim slice of the brief,
 *   with its modality (must / should / may / must not), the numbers and units it names and its
 *   scope (what it is about: its head phrase).
 * - **Letter formulas.** Indian-English business letters wrap the asks in conventions that ask
 *   for nothing: greetings ("Dear Sir", "Hi Rahul,", "Greetings from …", "Hope you are doing
 *   well"), sign-offs ("Regards", "Thanking you", a name under them), and lead-ins ("As
 *   discussed", "PFB", "Please find below", "Kindly", "Please note", "As per our call", "With
 *   reference to …"). Whole formula lines are dropped; lead-ins are cut off the ask they open.
 * - **Scope exclusions.** "Do NOT include …", "pls don't spend time on …", "no need for …",
 *   "avoid …", "… is out of scope", "… not required", "we are not looking for …" say what the
 *   work leaves out. They go to `outOfScope` (no weight) and never become criteria, unless the
 *   brief says explicitly that doing the excluded thing costs marks ("will be penalised", "will
 *   be rejected"); a flat "must not" / "never" / "is not allowed" is such an explicit rule, and
 *   stays a must-not ask.
 */
import { normaliseSpace } from './text';

export type Modality = 'must' | 'should' | 'may' | 'must-not';

/** A number the brief names with its unit ("98 %", "10 m", "INR 18 lakh", "2 working days"). */
export type Quantity = { value: string; unit: string };

export type Ask = {
  /** The ask as written, a verbatim slice of the brief. */
  text: string;
  modality: Modality;
  quantities: Quantity[];
  /** What the ask is about: its head phrase, without letter formulas, modals or verbs of asking. */
  scope: string;
};

/** A line that is only a greeting or a sign-off. */
const FORMULA_LINE =
  /^(?:(?:dear|hi|hello|hey|respected)\b[^.!?\n]{0,40}[,!:]?|greetings(?:\s+(?:of the day|from\b[^.!?\n]*))?[.!,]?|(?:i |we )?hope (?:you are|you're|this (?:mail|email|message) finds)[^.!?\n]*[.!,]?|(?:thanks|thank you|thanking you|many thanks)(?:\s*(?:&|and)\s*(?:warm\s+|best\s+|kind\s+)?regards)?[^.!?\n]{0,30}[,.!]?|(?:with\s+)?(?:warm|warmest|best|kind|kindest)?\s*regards[,.!]?|cheers[,.!]?|best(?: wishes)?[,.!]?|yours (?:sincerely|faithfully|truly)[,.]?|sir(?:\/madam)?[,.]?|madam[,.]?)$/i;

/** Lead-ins of a letter that carry no ask; cut off the sentence they open. */
const FORMULA_LEAD =
  /^(?:(?:as discussed(?:\s+(?:on|over|in|during|with|at)\s+[^,.:]{1,40})?|as per (?:our|the|your) [\w-]+(?: [\w-]+)?|as agreed|further to [^,]+|with reference to [^,]+|with regards? to [^,]+|pfb|please find (?:below|attached|enclosed)|kindly find (?:below|attached)|find below|kindly note(?: that)?|please note(?: that)?|note(?: that)?|kindly|please|pls|request you to|we request you to|also|quick (?:one|question|q|note|ask)\s*[-–—:,]?|heads up\s*[-–—:,]?)\b[,:]?\s*)+/i;

/** The formula that closes a letter: the lines under it are a name and a designation. */
const SIGN_OFF =
  /^(?:thanks|thank you|thanking you|many thanks|cheers|best(?: wishes)?|(?:with\s+)?(?:warm|warmest|best|kind|kindest)?\s*regards|yours (?:sincerely|faithfully|truly))(?![\p{L}])/iu;

/** A letter's introduction of the asks: "Kindly find the scope for …", "PFB the requirement for …". */
const INTRODUCTION =
  /^(?:(?:as discussed|as per our [\w-]+|with reference to [^,]+|further to [^,]+)[,:]?\s*)?(?:(?:please|kindly|pls)\s+)?(?:find|pfb)\s+(?:(?:below|attached|enclosed|herewith)\s+)?(?:the\s+)?(?:scope|requirements?|details|brief|points|specifications?|spec|summary)\b(?:\s+(?:of|for)\s+[^.!?:]{0,80})?[.:!]?$/i;

/** A pointer to what follows or is quoted: "Please see Arvind's note below.", "See the thread below:". */
const POINTER =
  /^(?:(?:please|pls|kindly)\s+)?(?:see|read|find|check)\s+(?:[\p{L}’'-]+\s+){0,3}(?:note|notes|mail|email|e-mail|message|request|thread|details|ask|brief|requirements?)\s+(?:below|attached|underneath|from [\p{L} ]{1,30})[.:!]?$/iu;

/** Whether a sentence is a letter formula and nothing else ("Regards,", "Dear Team,", "Hope you are doing well."). */
export function isLetterFormula(text: string): boolean {
  // "Hi,\nPFB the requirement …", "Thanking you,\nR. Jadhav": formula lines, and the name (and
  // designation) under a sign-off.
  const lines = text
    .trim()
    .split(/\s*\n\s*/)
    .filter(Boolean);
  if (lines.length > 1) {
    let signedOff = false;
    const formulaic = lines.every((line) => {
      if (isLetterFormula(line)) {
        signedOff ||= SIGN_OFF.test(line.trim());
        return true;
      }
      return signedOff && line.split(/\s+/).length <= 5;
    });
    if (formulaic) return true;
  }
  const t = normaliseSpace(text).trim();
  if (t === '') return false;
  if (FORMULA_LINE.test(t)) return true;
  // "Kindly find the scope for …", "PFB the requirement for the translation job.": an
  // introduction to what follows, asking for nothing itself.
  if (INTRODUCTION.test(t) || POINTER.test(t)) return true;
  // "PFB the requirements for the sales deck:" introduces a list and asks for nothing itself.
  const rest = t.replace(FORMULA_LEAD, '').trim();
  return rest === '' || (rest !== t && /:$/.test(rest) && rest.split(/\s+/).length <= 8);
}

/** The sentence without its letter lead-ins: "As discussed, PFB the scope" → "the scope". */
export function withoutFormulas(text: string): string {
  return text.replace(FORMULA_LEAD, '').trim();
}

/** Opening of a scope exclusion; what follows is the excluded thing. */
const EXCLUSION_OPENER =
  /^(?:(?:and|but|also|so)\s+)?(?:(?:please|pls|plz|kindly)\s+)?(?:(?:do not|don't|dont|do NOT|need not|needn't)\s+(?:(?:include|add|cover|build|create|make|write|do|provide|spend (?:any )?time on|worry about|bother (?:with|about)|review|translate|implement|design|use|prepare|attempt|touch)\s+)?|no need (?:for|to(?:\s+(?:include|add|cover|build|create|make|write|do|provide|review|translate|implement|design|prepare))?)\s+|avoid(?:ing)?\s+|skip(?:ping)?\s+(?!(?:buttons?|links?|options?|controls?|icons?|arrows?)\b)|exclude\s+|leave out\s+|we (?:are not|aren't) looking for\s+|(?:we(?: are|'re|’re)\s+)?not (?:looking for|after|asking for|expecting)\s+|forget (?:about\s+)?|we do(?: not|n't) (?:need|want)\s+|we(?: are|'re|’re| am) not (?:taking on|looking at|going to (?:do|build|make|include|cover|need)|\w+ing)\s+|we(?: will not|'ll not| won't| won’t| shall not) (?:need|want|be (?:doing|building|making|covering|including|adding|asking for|needing)|be(?=\s+\w+ing\b)|do|build|include|cover)\s+|(?:there is |there's )no need (?:for|to)\s+|(?:there is )?no requirement (?:for|to)\s+)/i;

/** Closing of a scope exclusion ("… is out of scope", "… not needed for this phase"). */
const EXCLUSION_CLOSER =
  /^(.+?)\s*(?:[:—–-]\s*)?(?:\b(?:is|are|will be|would be)\s+)?(?:not part of (?:this|the|our)\b|not (?:in|within) (?:(?:this|the|our|your|their|my) )?scope\b|not (?:be )?(?:responsible|liable) for\b|\b(?:is|are) being (?:done|handled|taken care of|covered|made|written|designed) by\b|\b(?:is|are|will be|has been|have been) (?:deferred|postponed|parked)\b|out of scope\b|outside (?:the|this) scope\b|not (?:required|needed|necessary|expected|wanted)\b|not to be\b|excluded\b|handled (?:separately|elsewhere|by)\b|not (?:our|my|your) (?:job|responsibility|concern|task)\b|not (?:in|for|part of) (?:this|the current) (?:round|phase|release|stage|version|sprint|project)\b|not (?:for )?now\b|beyond (?:the |this |our )?scope\b|(?:isn['’]t|aren['’]t|won['’]t be)\s+(?:required|needed|necessary|expected|wanted|in scope)\b|not something (?:we|you|i) (?:need|want|expect)\b|someone else['’]s (?:job|problem|responsibility|task)\b|not in (?:v1|version 1|the first version|the mvp|mvp|phase (?:1|one))\b)/i;

/**
 * Deferred work: "X can come later", "X later.", "X can wait for phase 2", "X is for the next
 * release". Not "the date moves 14 days later": a time span before "later" is no deferral.
 */
const DEFERRED =
  /^(.+?)\s+(?:(?:can|could|will|may|should|is to|are to|is going to|are going to)\s+)?(?:(?:come|wait|be (?:done|added|handled|taken up|picked up)|follow|go)\s+)?(?:(?:till|until)\s+)?(?:later|(?:for|in|until|till) (?:a |the )?(?:later|next|second|future) (?:phase|stage|round|release|version|sprint)|(?:for|in|until|till) phase (?:2|two|ii)\b|(?:(?:till|until|for)\s+)?(?:the )?next (?:quarter|month|year|week|season|sprint|phase|round|release|version)\b|(?:is|are) for (?:a |the )?(?:later|next|future) (?:phase|stage|round|release|version)|(?:is|are) an? (?:phase (?:2|two|ii)|later|future|next-phase) (?:thing|item|task|feature|job)|(?<=(?:can|could|will|may)\s+)wait\b(?:\s+(?:till|until|for)\s+[^,;]+)?)(?:\s+(?:on|please|pls|once [^,;]+|when [^,;]+))?\s*(?:[,;—–-].*)?$/i;
const TIME_BEFORE_LATER =
  /(?:\d|\b(?:a|one|two|three|four|five|six|seven|ten|few|several))\s+(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)$/i;
/** "Leave X out", "X — leave it out": what the brief leaves out. */
const LEAVE_OUT = /^(?:(?:please|pls|kindly|just|and|but|so)\s+)*leave\s+(.+?)\s+out\b/i;
const LEAVE_IT_OUT = /^(.+?)\s*(?:[—–:,-]\s*|\s)(?:please\s+)?(?:leave|keep) (?:it|them|that|this) out\b/i;

/** "No X needed", "no X please", "no X for now": what the brief does not want done. */
const NO_THING_NEEDED =
  /^(?:[-*•]\s*)?no\s+(?!need\b|requirement\b)(.+?)\s+(?:(?:is|are)\s+)?(?:needed|required|necessary|wanted|please|pls|for now|yet|right now|this (?:time|round|phase)|at this (?:stage|point)|in this phase)$/i;

/**
 * A deliverable that leaves something out: "the deck should not include pricing", "the report
 * doesn't need to cover tax", "the app won't have a web version". The object is the excluded
 * thing; a "must not" or "never" stays a graded rule (`HARD_PROHIBITION`).
 */
const LEAVES_OUT_CONTENT =
  /^((?:[\p{L}\p{N}'’-]+\s+){1,5}?)(?:should not|shouldn't|shouldn’t|does not need to|doesn't need to|doesn’t need to|do not need to|don't need to|don’t need to|need not|needn't|will not|won't|won’t|is not going to|isn't going to|is not to|are not to)\s+(?:include|contain|cover|mention|show|have|discuss|list|feature|address|go into|talk about|get into|deal with)\s+(.+)$/iu;
/** The excluded thing is the subject: "pricing should not be included", "tax won't be part of this". */
const LEFT_OUT_SUBJECT =
  /^(.+?)\s+(?:should not|shouldn't|shouldn’t|will not|won't|won’t|does not|doesn't|doesn’t|do not|don't|don’t|is not going to|isn't going to|are not going to|aren't going to)\s+(?:need to\s+)?(?:be\s+)?(?:included|covered|needed|required|in scope|part of (?:this|the|it|our)\b|go (?:in|into) (?:this|the|it)\b)/iu;

/** Said outright: doing the thing costs marks or the submission. */
const EXPLICIT_PENALTY =
  /\b(?:will|would|shall) (?:be )?(?:penali[sz]ed|rejected|disqualified|fail(?:ed)?|lose marks|cost marks)\b|\bmarks? (?:will be |are )?deducted\b|\bautomatic(?:ally)? (?:fail|rejected|disqualified)\b|\bcounts? against\b|\bdisqualif/i;

/** Whether a sentence says outright that doing something costs marks or the submission. */
export function statesPenalty(text: string): boolean {
  return EXPLICIT_PENALTY.test(normaliseSpace(text));
}

/** A must-not said in so many words: a graded rule, not a note on scope. */
const HARD_PROHIBITION =
  /\b(?:must|shall|may|can)\s*(?:not|n't)\b|\bmustn't\b|\bcannot\b|\bnever\b|\bnot (?:be )?(?:allowed|permitted|accepted)\b|\b(?:is|are) (?:forbidden|prohibited)\b|^(?:[-*•]\s*)?no\s+(?!need\b|requirement\b)/i;

/**
 * What a scope exclusion leaves out, or null when the sentence is not one. Explicitly
 * penalised exclusions and flat must-nots are rules to grade, so they return null too.
 */
/** A table cell that only says its row is out ("Out of scope", "not needed", "later", "N/A"). */
const EXCLUDED_CELL =
  /^(?:out of scope|not in scope|not needed|not required|excluded|later|not now|n\/a|na|none|no|phase (?:2|two|ii)|next phase|not this (?:time|round|phase))[.!]?$/i;

/**
 * A table row read cell by cell: "Tax<TAB>Out of scope" leaves out the tax, "Marketing<TAB>leave
 * the flyers out" the flyers; null when no cell excludes anything.
 */
function excludedByCell(sentence: string): string | null {
  if (!/\t|\s\|\s|\S {3,}\S/.test(sentence)) return null;
  const cells = sentence
    .split(/\t+|\s*\|\s*| {3,}/)
    .map((c) => c.trim())
    .filter(Boolean);
  if (cells.length < 2) return null;
  for (const cell of cells.slice(1)) {
    if (EXCLUDED_CELL.test(cell)) return cleanThing(cells[0] ?? '') || null;
    const thing = excludedThing(cell);
    if (thing) return thing;
  }
  return null;
}

export function excludedThing(sentence: string): string | null {
  const byCell = excludedByCell(sentence);
  if (byCell) return byCell;
  const text = withoutFormulas(normaliseSpace(sentence))
    .replace(/[.;!]+$/u, '')
    .trim();
  if (text === '' || EXPLICIT_PENALTY.test(text)) return null;
  // "No topographic survey needed", "no frontend please", "No dashboards for now": scope, not a
  // prohibition ("No plagiarism." stays one).
  const noThing = text.match(NO_THING_NEEDED);
  if (noThing) return cleanThing(noThing[1] ?? '') || null;
  const leave = text.match(LEAVE_OUT) ?? text.match(LEAVE_IT_OUT);
  if (leave) return cleanThing(leave[1] ?? '') || null;
  // "Beyond scope: translations", "Out of scope: the annexures": a label over the excluded thing.
  const labelled = text.match(
    /^(?:out of scope|out|beyond (?:the )?scope|not in scope|excluded|exclusions|not needed|not required|won't do|not doing|what we (?:don't|do not|don’t) (?:want|need)|not wanted)\s*[:—–-]\s*(.+)$/i,
  );
  if (labelled) return cleanThing(labelled[1] ?? '') || null;
  // "We'll handle hosting ourselves": the client's own work, outside the brief.
  const ourselves = text.match(
    /^we(?:'ll|’ll| will| shall)?\s+(?:handle|do|take care of|manage|own|write|provide|arrange|cover)\s+(.+?)\s+(?:ourselves|in-house|internally)$/i,
  );
  if (ourselves) return cleanThing(ourselves[1] ?? '') || null;
  // "Video is out.": left out.
  const out = text.match(/^(.+?)\s+(?:is|are)\s+out$/i);
  if (out && (out[1] ?? '').split(/\s+/).length <= 5)
    return cleanThing((out[1] ?? '').replace(/^(?:the)\s+/i, '')) || null;
  // "The consultant will not be responsible for implementing any interventions": what is not theirs to do.
  const notTheirs = text.match(
    /^(?:the|a|an|our|your)?\s*[\p{L}-]+(?:\s+[\p{L}-]+)?\s+(?:will not|won't|won’t|is not|isn't|are not|aren't|shall not)\s+be\s+(?:responsible|liable)\s+for\s+(.+)$/iu,
  );
  if (notTheirs)
    return cleanThing((notTheirs[1] ?? '').replace(/^(\w+ing)\s+(?:any|the|all)\s+/i, '$1 ')) || null;
  const content = text.match(LEAVES_OUT_CONTENT);
  if (content && !/\b(?:must|should|shall|and|or|but|if|when)\b/i.test(content[1] ?? ''))
    return cleanThing(content[2] ?? '') || null;
  const leftOut = text.match(LEFT_OUT_SUBJECT);
  if (
    leftOut &&
    (leftOut[1] ?? '').split(/\s+/).length <= 6 &&
    !/\b(?:must|should|shall|will|is|are|if|when)\b/i.test(leftOut[1] ?? '')
  )
    return cleanThing((leftOut[1] ?? '').replace(/^(?:that|the)\s+/i, '')) || null;
  const opener = text.match(EXCLUSION_OPENER);
  if (opener && !HARD_PROHIBITION.test(text.slice(0, opener.index ?? 0))) {
    const thing = cleanThing(text.slice(opener[0].length));
    return thing || null;
  }
  if (HARD_PROHIBITION.test(text)) return null;
  const deferred = text.match(DEFERRED);
  if (deferred) {
    const subject = (deferred[1] ?? '').trim();
    // "Android 8 and later", "iOS 16 or later": a version range; "must work …": an ask.
    if (
      !TIME_BEFORE_LATER.test(subject) &&
      !/\s(?:and|or)$/i.test(subject) &&
      !/\b(?:must|should|shall|has to|have to|needs? to)\b/i.test(subject) &&
      subject.split(/\s+/).length <= 8
    ) {
      const thing = cleanThing(
        subject
          .replace(/^(?:that|the)\s+/i, '')
          .replace(/\s+(?:is|are|was|were|can|could|will|may)\b.*$/i, ''),
      );
      if (thing) return thing;
    }
  }
  const closer = text.match(EXCLUSION_CLOSER);
  // "must work on Android 8+, iOS is not required": only the last clause is scope; the sentence
  // is an ask with an exclusion cut off it (`opensExclusion` finds the clause).
  const head = (closer?.[1] ?? '')
    .split(/,\s|;\s/)
    .slice(0, -1)
    .join(', ');
  if (closer && /\b(?:must|should|shall|will|needs?|has to|have to|is|are|can|want|wants)\b/i.test(head))
    return null;
  if (closer) {
    // "Structural design is by a separate consultant — not required from you": the subject.
    const subject = (closer[1] ?? '')
      .replace(/^(?:that|the)\s+/i, '')
      .replace(/\s+(?:is|are|was|were|will|would|should|shall|can)\b.*$/i, '')
      .replace(/\s*[:—–-]\s*$/, '');
    const thing = cleanThing(subject);
    return thing || null;
  }
  return null;
}

/**
 * Whether a clause inside a sentence opens as a scope exclusion ("…, and please don't redo …",
 * "…; no need for …"). "…, and avoid leakage" is not one: inside a sentence, "avoid" sets a
 * quality bar on the ask it follows; only a sentence of its own ("Avoid paid databases.") is scope.
 */
export function opensExclusion(clause: string): boolean {
  const t = clause.trim();
  if (/^(?:(?:and|but|also|so)\s+)?avoid(?:ing)?\b/i.test(t)) return false;
  if (EXCLUSION_OPENER.test(t) && excludedThing(t) !== null) return true;
  // "…, the report doesn't need to include a forecast and …": a clause that leaves content out.
  if (LEAVES_OUT_CONTENT.test(t) && excludedThing(t.split(/,\s|;\s|\s+and\s+/)[0] ?? t) !== null) return true;
  // A short clause that is an exclusion of its own: "…, iOS is not required for now", "…, no
  // daily reports needed", "…; racking changes are not part of this".
  return t.split(/\s+/).length <= 10 && !/,\s|;\s/.test(t) && excludedThing(t) !== null;
}

/** The excluded thing without its reason ("; QGIS is enough", "— the interview carries it") or a trailing "at this stage". */
function cleanThing(text: string): string {
  return text
    .split(
      /\s*(?:;|\s[—–]\s|\s-\s|:\s|,\s(?:since|because|as|the|our|we|it|this|they|these|those|which|that|so)\b)/,
    )[0]!
    .replace(
      /(?:\s+(?:yet|for now|at this stage|at this point|at the moment|just now|right now|for this phase|in this phase|this time|this year|this cycle|this round|btw|either|for this one|for this project|for this brief|for this job|now|beyond basic \w+))+$/i,
      '',
    )
    .replace(
      /\s+(?:we|i|they|you)(?:'ll|’ll| will| can| shall| could)\s+(?:do|add|handle|build|take up|pick up|cover)(?:\s+(?:it|them|that))?$/i,
      '',
    )
    .replace(/^(?:any|the|a|an)\s+/i, '')
    .replace(/[\s.,;:!]+$/, '')
    .replace(/^(\w+ing)\s+(?:it|them|this|that)$/i, (_, gerund: string) => nominalise(gerund))
    .trim();
}

/** "deploying" → "deployment": the thing a gerund with only a pronoun for object names. */
const NOMINAL: Readonly<Record<string, string>> = {
  deploying: 'deployment',
  translating: 'translation',
  printing: 'printing',
  publishing: 'publication',
  hosting: 'hosting',
  testing: 'testing',
  launching: 'launch',
  localising: 'localisation',
  localizing: 'localization',
  integrating: 'integration',
  migrating: 'migration',
  automating: 'automation',
  documenting: 'documentation',
  animating: 'animation',
};
function nominalise(gerund: string): string {
  return NOMINAL[gerund.toLowerCase()] ?? gerund;
}

/** A lead-in that makes every item of its list an exclusion ("Out of scope:", "Not needed:"). */
export function isExclusionLeadIn(leadIn: string | null): boolean {
  return (
    leadIn !== null &&
    (/\b(?:out of scope|not in scope|not needed|not required|exclusions?|excluded|do not|don't)\b/i.test(
      leadIn,
    ) ||
      /^(?:out|won't do|not doing|later)\s*:?$/i.test(leadIn.trim()))
  );
}

const MODAL_MUST =
  /\b(?:must|shall|required?|mandatory|need(?:s)? to|ha(?:s|ve) to|is to be|are to be|to be)\b/i;
const MODAL_MAY =
  /\b(?:nice to have|optional(?:ly)?|bonus|would be (?:nice|great|good)|if (?:you have )?time|could|may|ideally|preferably)\b/i;

/** The modality an ask states. */
export function modalityOf(text: string): Modality {
  const t = text.toLowerCase();
  if (HARD_PROHIBITION.test(t) || /\b(?:do not|don't|avoid)\b/.test(t)) return 'must-not';
  if (MODAL_MAY.test(t)) return 'may';
  if (MODAL_MUST.test(t)) return 'must';
  return 'should';
}

const UNIT =
  '%|percent|percentage points?|pp|ms|s|sec(?:onds?)?|min(?:utes?)?|hours?|days?|working days|weeks?|months?|years?|km|m|cm|mm|ft|feet|ha|hectares?|kg|g|mb|gb|tb|kb|px|fps|p|lufs|lakh|crore|k|words?|pages?|slides?|questions?|lessons?|stops?|students?|people|persons?|vehicles?|tankers?|litres?|classes|images?|meters?|metres?|requests? per (?:minute|second|hour)|rpm|rps|x';
const QUANTITY = new RegExp(
  `(?:(INR|Rs\\.?|₹|USD|\\$|EUR|€)\\s*)?(\\d+(?:[.,]\\d+)*)(?:\\s*[-–]\\s*\\d+(?:[.,]\\d+)*)?\\s*(${UNIT})?(?![\\p{L}\\d])`,
  'giu',
);

/** The numbers an ask names, with their units or currencies. */
export function quantitiesOf(text: string): Quantity[] {
  const out: Quantity[] = [];
  for (const m of text.matchAll(QUANTITY)) {
    const value = m[2] ?? '';
    const unit = (m[1] ?? m[3] ?? '').trim();
    if (value) out.push({ value, unit });
  }
  return out;
}

/** Verbs that open a further ask after a comma or "and" ("…, prepare a budget … and draft a run-of-show"). */
const ASK_VERB =
  /^(?:add|arrange|assess|build|calculate|check|cite|code|compare|compute|create|cut|define|deliver|describe|design|develop|document|draft|edit|estimate|explain|export|flag|give|identify|include|keep|list|log|make|map|mark|master|measure|plan|prepare|present|produce|project|propose|provide|rake|rate|record|redline|report|review|run|select|send|share|shortlist|show|summarise|summarize|test|trim|use|verify|write)\b/i;

/**
 * The clauses of one sentence that are asks of their own: cut at semicolons, and at commas or
 * "and" where the next clause opens with a verb of asking. Each part is a verbatim slice.
 */
export function splitClauses(text: string): string[] {
  const cuts: number[] = [0];
  const re = /\s*(?:;|,\s*(?:and\s+)?|\s+and\s+|\s+so\s+(?=no\b|we\s+don))/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const next = text.slice(m.index + m[0].length);
    if (m[0].includes(';') || ASK_VERB.test(next) || opensExclusion(next))
      cuts.push(m.index, m.index + m[0].length);
  }
  cuts.push(text.length);
  const parts: string[] = [];
  for (let i = 0; i < cuts.length; i += 2) {
    const part = text.slice(cuts[i], cuts[i + 1]).trim();
    if (part.split(/\s+/).length >= 2) parts.push(part);
  }
  return parts.length > 0 ? parts : [text.trim()];
}

/** A company describing itself ("We are a Bengaluru-based SaaS company …", "Greetings from PayNest!"): context, never an ask. */
export function isSelfDescription(text: string): boolean {
  return (
    /^(?:we are|we're|our company is|[\w&.-]+(?: [\w&.-]+){0,3} is) (?:a|an|one of)\b[^.]*\b(?:company|firm|startup|start-up|agency|business|organi[sz]ation|ngo|cooperative|co-operative|manufacturer|provider|team|group|brand|shop|store|school|clinic|hospital)\b/i.test(
      normaliseSpace(text),
    ) || /^greetings from\b/i.test(text.trim())
  );
}

/** The head phrase of an ask: formulas, modal openers and a leading verb of asking taken off. */
export function scopeOf(text: string): string {
  return withoutFormulas(normaliseSpace(text))
    .replace(
      /^(?:(?:it|this|we|you|they|the \w+)\s+)?(?:must|should|shall|will|may|can|could|needs? to|has to|have to|is to be|are to be|to be)\s+(?:be\s+)?/i,
      '',
    )
    .replace(/[.;:!?]+$/, '')
    .trim();
}

/**
 * The brief read as asks and exclusions. `sentences` are the brief's sentences and list items
 * (see `splitSentences`); each is dropped when it is a letter formula or a company describing
 * itself, goes to `outOfScope` when it is a scope exclusion (or an item of an "Out of scope:"
 * list), and is otherwise split into its clauses.
 */
export function readAsks(
  sentences: readonly { text: string; bullet: boolean; leadIn: string | null; heading: boolean }[],
): { asks: Ask[]; outOfScope: string[] } {
  const asks: Ask[] = [];
  const outOfScope: string[] = [];
  for (const s of sentences) {
    if (isLetterFormula(s.text) || isSelfDescription(s.text)) continue;
    if (s.bullet && isExclusionLeadIn(s.leadIn)) {
      const thing = cleanThing(withoutFormulas(s.text));
      if (thing) outOfScope.push(thing);
      continue;
    }
    if (s.heading) continue;
    for (const clause of s.text.split(/\s*;\s*/)) {
      const thing = excludedThing(clause);
      if (thing) {
        outOfScope.push(thing);
        continue;
      }
      for (const part of splitClauses(clause)) {
        const excluded = excludedThing(part);
        if (excluded) {
          outOfScope.push(excluded);
          continue;
        }
        asks.push({
          text: part,
          modality: modalityOf(part),
          quantities: quantitiesOf(part),
          scope: scopeOf(part),
        });
      }
    }
  }
  return { asks, outOfScope: [...new Set(outOfScope)] };
}
