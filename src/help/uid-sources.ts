// Where the Uids come from that no API lists (drip campaigns, support articles, tags,
// deal pipeline stages) or lists only inside an account (deals, D36): said once here,
// in the help of each verb that takes one and of its group (command.ts).

/** For an operand's or option's help, after "the … Uid". */
export const uidFrom = {
  drip: "from the back office's drip campaign pages: the API lists none",
  article: "from the back office's support article pages: the API lists none",
  tag: "from the back office's tag pages: the API lists none",
  subscription: "bo subscriptions list <accountUid> shows an account's",
  addon: "bo addons list <accountUid> shows an account's",
  deal: "its account's Deals.Uid: bo accounts get <accountUid> --fields Deals.Uid,Deals.Name",
  stage:
    "a deal's is in its account: bo accounts get <accountUid> --fields Deals.DealPipelineStage.Uid; other stages' " +
    "are on the back office's deal pipeline pages, the API lists none",
} as const;

/** The sentences of a group's help (and of its verbs' descriptions): where the Uids its verbs take come from. */
export const groupUidNotes = {
  drips: "Drip campaign Uids come from the back office's own pages: the API has no list of drip campaigns.",
  articles: "Support article and tag Uids come from the back office's own pages: the API has no list of either.",
  deals:
    "A deal's Uid is in its account: bo accounts get <accountUid> --fields Deals.Uid,Deals.Name; its pipeline " +
    "stage's too: --fields Deals.DealPipelineStage.Uid,Deals.DealPipelineStage.Name. Other stages' Uids come from " +
    "the back office's deal pipeline pages: the API has no list of stages.",
  subscriptions: "A subscription's Uid: bo subscriptions list <accountUid>.",
  addons: "A subscription add-on's Uid: bo addons list <accountUid>.",
} as const satisfies Record<string, string>;
