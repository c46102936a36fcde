/** A reader's answer to "Was this helpful?" about an article: one per browser, a later one replaces it. */
export interface ArticleFeedbackTable {
  id: string;
  organization_id: string;
  article_id: string;
  /** SHA-256 (hex) of the browser's id: votes are told apart without keeping the id. */
  voter_key: string;
  helpful: boolean | number;
  comment: string | null;
  created_at: string;
  updated_at: string;
}
