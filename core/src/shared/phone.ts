/** A mobile number is its 10 digits, without the country code. Plain: the browser's fields read it too. */
export const PHONE_DIGITS = 10;
export const PHONE_PATTERN = new RegExp(`^\\d{${PHONE_DIGITS}}$`);
/** What a person types, as a number: the digits only. */
export const phoneDigits = (typed: string) => typed.replace(/\D/g, "");
