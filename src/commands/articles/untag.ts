// `bo articles untag <articleUid> <tagUid>`: removes a tag from an article; the tag
// itself stays, and an article without the tag still succeeds (D26). `-` reads article
// Uids from stdin, the tag fixed.
import { arg, defineMutation, target, bySentence } from '../../mutation/define.js';
import { untagArticleRequest } from '../../api/support.js';
import { groupUidNotes, uidFrom } from '../../help/uid-sources.js';

export default defineMutation({
  path: ['articles', 'untag'],
  summary: 'Remove a tag from a support article (- reads article Uids from stdin)',
  description:
    'Remove a tag from a support article. The tag itself stays; removing a tag the article does ' +
    'not have changes nothing and succeeds. With - in place of the article Uid, reads article Uids ' +
    `from stdin, one a line (or JSON Lines with "Uid"), and removes the same tag from each. ${groupUidNotes.articles}`,
  examples: [
    'bo articles untag art_m0gz9lp9gc tag_lw3dpnj7ou',
    'bo articles untag art_m0gz9lp9gc tag_lxvl2oztv9 --dry-run',
    'jq -r .Uid articles.jsonl | bo articles untag - tag_lxvl2oztv9',
  ],
  target: target.uid('<articleUid>', `the article Uid (${uidFrom.article})`, { noun: 'article', resource: 'Article' }),
  args: [arg.uid('<tagUid>', `the Uid of the tag to remove (${uidFrom.tag})`)],
  resend: 'safe', // D26: removing a tag the article lacks changes nothing
  action: (u, [tag]) => `Remove tag ${tag} from article ${u}`,
  request: (u, _p, [tag]) => untagArticleRequest(u, tag),
  done: 'untagged',
  // D26: the answer is a sentence the API does not specify; the sandbox's tell (removed,
  // has no tag); another tenant's cannot, and an article's tags cannot be read (D36).
  changed: (res) => bySentence(res, { changed: /^Tag \S+ removed from article \S+$/, unchanged: /^Article \S+ has no tag \S+; nothing changed$/, reason: 'no-such-tag' }),
  shown: (_u, _p, [tag]) => ({ RemovedTag: tag }),
  note: (_u, _p, res) => (typeof res.body === 'string' && /nothing changed/i.test(res.body) ? res.body : undefined),
});
