/** The Import screen's choice for people of one household who share an email, named where a rejection points to it. */
export const SHARED_EMAILS_LABEL =
  'People with the same email and different names are different people (a household)';
