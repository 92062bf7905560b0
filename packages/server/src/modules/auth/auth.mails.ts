import type { MailMessage } from '../../platform/mail.ts';

/** Who gets an account e-mail and the one link it carries. */
interface AccountMail {
  to: string;
  username: string;
  link: string;
  siteName: string;
}

/** Short plain-text e-mails of the auth module, signed with the site name. */
function accountMail(
  mail: AccountMail,
  subject: string,
  intro: string,
  outro: string,
  signOff: string,
): MailMessage {
  return {
    to: mail.to,
    subject,
    link: mail.link,
    text: [`Hi ${mail.username},`, '', intro, '', mail.link, '', outro, '', signOff, mail.siteName, ''].join(
      '\n',
    ),
  };
}

export function verificationMail(mail: AccountMail): MailMessage {
  return accountMail(
    mail,
    `Confirm your e-mail for ${mail.siteName}`,
    `Welcome to ${mail.siteName}! Please confirm your e-mail address by opening this link:`,
    'The link works once and expires in 48 hours. If you did not create this account, you can ignore this e-mail.',
    'See you soon,',
  );
}

export function passwordResetMail(mail: AccountMail): MailMessage {
  return accountMail(
    mail,
    `Reset your ${mail.siteName} password`,
    `Someone (hopefully you) asked to reset the password of your ${mail.siteName} account. Choose a new one here:`,
    'The link works once and expires in 1 hour. If you did not ask for this, ignore this e-mail: your password stays as it is.',
    'Take care,',
  );
}
