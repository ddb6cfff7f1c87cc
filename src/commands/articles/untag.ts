// `bo articles untag <articleUid> <tagUid>`: removes a tag from an article; the tag
// itself stays, and an article without the tag still succeeds (D26). `-` reads article
// Uids from stdin, the tag fixed.
import { defineCommand } from '../../command.js';
import { mutationFlags } from '../../mutation/flags.js';
import type { MutationFlags } from '../../mutation/types.js';
import { runMutation } from '../../mutation/run.js';
import { untagArticleRequest } from '../../api/support.js';
import { checkUid } from '../../input/validate.js';

export default defineCommand<MutationFlags>({
  path: ['articles', 'untag'],
  summary: 'Remove a tag from a support article (- reads article Uids from stdin)',
  description:
    'Remove a tag from a support article. The tag itself stays; removing a tag the article does ' +
    'not have changes nothing and succeeds. With - in place of the article Uid, reads article Uids ' +
    'from stdin, one a line (or JSON Lines with "Uid"), and removes the same tag from each.',
  examples: [
    'bo articles untag art_0001 tag_0001',
    'bo articles untag art_0001 tag_0001 --dry-run',
    'jq -r .Uid articles.jsonl | bo articles untag - tag_0001',
  ],
  configure: (cmd) =>
    mutationFlags(cmd.argument('<articleUid>', 'the article Uid, or - for stdin').argument('<tagUid>', 'the tag to remove'), {
      batch: true,
    }),
  run: async (ctx, [uid, tag], opts) => {
    await runMutation(
      ctx,
      {
        targetLabel: '<articleUid>',
        noun: 'article',
        done: 'untagged',
        resource: 'Article',
        action: (u) => `Remove tag ${tag as string} from article ${u}`,
        prepare: () => checkUid('<tagUid>', tag as string),
        request: (u, tagUid) => untagArticleRequest(u, tagUid),
        // The tag is in the path, not a body: named as the field it removes.
        shown: (_u, tagUid) => ({ RemovedTag: tagUid }),
        // The answer is a sentence; that nothing changed (the article lacked the tag) is worth saying.
        note: (_u, _t, res) => (typeof res.body === 'string' && /nothing changed/i.test(res.body) ? res.body : undefined),
      },
      uid as string,
      opts,
    );
  },
});
