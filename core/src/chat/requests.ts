import { Schema } from "effect";
import { Email } from "../shared/validation.ts";
import { CHAT_LIMITS } from "./policy.ts";
import { OptionalPerPage } from "../shared/page.ts";

export const CHAT_MESSAGES = {
  conversation: "Conversation fetched successfully",
  sent: "Message sent successfully",
  read: "Messages marked as read",
  emailed: "Unseen messages e-mailed",
  token: "Chat token",
  inbox: "Conversations fetched successfully",
  assigned: "Conversation assigned",
  closed: "Conversation closed",
  reopened: "Conversation reopened",
  empty: "Please write a message or attach an image.",
  tooLong: "A message must be at most 5000 characters.",
  imageType: "Only PNG or JPEG images can be attached.",
  imageTooLarge: "An image must be at most 10 MB.",
  tooManyImages: "At most 4 images can be attached to a message.",
  notSupport: "The support team answers from the support inbox.",
  assigneeNotSupport: "A conversation can only be assigned to an admin or a reviewer.",
  visitorToken: "This chat link is invalid or has expired. Please start a new conversation.",
  tooMany: "Too many messages. Please try again later.",
  nameTooLong: "Name must be at most 100 characters",
} as const;

/** An image sent with a message, as the adapter received it. */
export interface IncomingImage {
  readonly bytes: Uint8Array;
  readonly fileName: string;
}

const TextField = Schema.optionalWith(
  Schema.String.pipe(Schema.maxLength(CHAT_LIMITS.textMax)).annotations({ message: () => ({ message: CHAT_MESSAGES.tooLong, override: true }) }),
  { nullable: true, default: () => "" },
);
export const ChatMessageRequest = Schema.Struct({ text: TextField });
export const VisitorMessageRequest = Schema.Struct({
  email: Email,
  name: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(100)).annotations({ message: () => ({ message: CHAT_MESSAGES.nameTooLong, override: true }) }), {
    nullable: true,
  }),
  text: TextField,
});
export const AssignRequest = Schema.Struct({ assignee_identifier: Schema.optionalWith(Schema.String, { nullable: true }) });

export const InboxFilter = Schema.Struct({
  status: Schema.optionalWith(Schema.Literal("open", "closed", "all").annotations({ message: () => ({ message: "Status must be one of open, closed or all", override: true }) }), { nullable: true }),
  mine: Schema.optionalWith(Schema.Union(Schema.Boolean, Schema.Literal("1", "0", "true", "false")), { nullable: true }),
  per_page: OptionalPerPage,
});
