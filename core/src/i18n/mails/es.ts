import type { MailCopy } from "./en.ts";

/** The e-mails in Spanish, as a pediatric nurse would write to a family (ADR 77). */
export const MAILS_ES: MailCopy = {
  common: {
    hello: "Hola, {name}:",
    helloAnyone: "Hola:",
    footer: "Crown, evaluación de la forma de la cabeza del bebé. Si no esperaba este correo, puede ignorarlo.",
    pasteAddress: "O copie esta dirección en su navegador:",
    signIn: "Iniciar sesión",
  },
  verification: {
    subject: "Verifique su correo electrónico para Crown",
    thanks: "Gracias por registrarse en Crown. Confirme que este es su correo electrónico.",
    expires: "El enlace funciona una sola vez y caduca en {hours} horas.",
    action: "Verificar correo electrónico",
  },
  reset: {
    subject: "Restablezca su contraseña de Crown",
    received: "Recibimos una solicitud para restablecer la contraseña de su cuenta de Crown.",
    expires: "El enlace funciona una sola vez y caduca en {minutes} minutos. Si usted no lo pidió, su contraseña sigue igual.",
    action: "Restablecer contraseña",
    unavailable:
      "Recibimos una solicitud para restablecer la contraseña de una cuenta de Crown con este correo electrónico, pero no se puede restablecer ninguna contraseña para él.",
    unavailableHelp:
      "Si todavía no se ha registrado, puede crear una cuenta. Si cree que se trata de un error, comuníquese con el equipo de soporte de Crown. Si usted no lo pidió, puede ignorar este correo.",
    signUp: "Registrarse",
  },
  passwordChanged: {
    subject: "Se cambió su contraseña de Crown",
    changed: "Se acaba de cambiar la contraseña de su cuenta de Crown y se cerró la sesión en todos los demás dispositivos.",
    notYou: "Si no fue usted, restablezca su contraseña de inmediato y comuníquese con el equipo de soporte de Crown.",
  },
  twoStep: {
    resetSubject: "Se restableció el inicio de sesión en dos pasos de su cuenta de Crown",
    reset: "Un administrador de Crown restableció el inicio de sesión en dos pasos de su cuenta y se cerró la sesión en todos los dispositivos.",
    setUpAgain: "La próxima vez que inicie sesión con su contraseña, Crown le pedirá que vuelva a configurar el inicio de sesión en dos pasos.",
    notYou: "Si usted no lo pidió, comuníquese de inmediato con el equipo de soporte de Crown.",
    enabledSubject: "El inicio de sesión en dos pasos está activado en su cuenta de Crown",
    enabled: "Se acaba de activar el inicio de sesión en dos pasos en su cuenta de Crown ({method}).",
    disabledSubject: "El inicio de sesión en dos pasos está desactivado en su cuenta de Crown",
    disabled: "Se acaba de desactivar el inicio de sesión en dos pasos en su cuenta de Crown.",
    methodApp: "una aplicación de autenticación",
    methodPasskey: "una llave de acceso",
    notYouChange: "Si no fue usted, restablezca su contraseña de inmediato y comuníquese con el equipo de soporte de Crown.",
  },
  approval: {
    approvedSubject: "Su cuenta de Crown fue aprobada",
    approved: "Un administrador revisó su información y aprobó su cuenta de Crown. Ya puede iniciar sesión.",
    rejectedSubject: "Su solicitud de cuenta de Crown",
    rejected: "Un administrador revisó su información y no pudo aprobar su cuenta de Crown.",
    reason: "Motivo: {reason}",
    mistake: "Si cree que se trata de un error, comuníquese con el equipo de soporte de Crown.",
  },
  invitation: {
    staffSubject: "{physician} le invitó a Crown",
    staffAsOfficeAdmin: "{physician} le agregó como administrador del consultorio en Crown, el portal de evaluación de la forma de la cabeza del bebé.",
    staffAsNurse: "{physician} le agregó como enfermero o enfermera en Crown, el portal de evaluación de la forma de la cabeza del bebé.",
    setPassword: "Cree una contraseña para aceptar la invitación. El enlace funciona una sola vez y caduca en {days} días.",
    setPasswordAction: "Crear su contraseña",
    caregiverRegistered:
      "{physician} registró a su bebé en Crown, el portal de evaluación de la forma de la cabeza del bebé, con este correo electrónico como el del cuidador.",
    caregiverOpen: "Cree una contraseña para abrir su cuenta: allí encontrará a su bebé y podrá subir las fotos mensuales de la cabeza.",
    caregiverExpires: "El enlace funciona una sola vez y caduca en {days} días.",
    patientRequestSubject: "{physician} pide agregar un paciente a su cuenta de Crown",
    patientRequest: "{physician} registró a un bebé como paciente en Crown con su correo electrónico como el del cuidador.",
    patientRequestConsent: "No se agrega nada a su cuenta hasta que usted acepte. Inicie sesión para ver la solicitud y aceptarla o rechazarla.",
    staffRequestSubject: "{physician} le pide que se una a su personal en Crown",
    staffRequestAsOfficeAdmin: "{physician} le pide que actúe como administrador del consultorio en Crown.",
    staffRequestAsNurse: "{physician} le pide que actúe como enfermero o enfermera de su consultorio en Crown.",
    staffRequestConsent: "Solo actuará en nombre del consultorio después de aceptar. Inicie sesión para ver la solicitud y aceptarla o rechazarla.",
    reviewRequest: "Ver la solicitud",
    declinedSubject: "Su solicitud en Crown fue rechazada",
    declined: "Una persona a la que usted pidió vincular en Crown la rechazó, así que no se vinculó nada. Sus notificaciones en Crown indican de qué solicitud se trata.",
    nothingLinkedSubject: "{physician} usó su correo electrónico en Crown",
    nothingLinkedPatient:
      "{physician} registró a un paciente en Crown con este correo electrónico como el del cuidador. La cuenta de este correo no puede tener pacientes, así que no se agregó nada.",
    nothingLinkedStaff:
      "{physician} pidió agregar este correo electrónico a su personal en Crown. La cuenta de este correo no puede actuar como personal, así que no se cambió nada.",
    otherAddress: "Si usted es la persona a la que se refería el consultorio, deles otro correo electrónico.",
    acceptedSubject: "Se aceptó su invitación de Crown",
  },
  practice: {
    verifiedSubject: "Su consultorio está verificado en Crown",
    verified:
      "Crown verificó su consultorio. Las familias ya pueden encontrarle en la búsqueda de proveedores de salud, y usted puede agregar pacientes y personal.",
  },
  removal: {
    subject: "Recibimos su solicitud para eliminar su cuenta de Crown",
    asked: "El {date} usted nos pidió eliminar su cuenta de Crown ({email}).",
    handled:
      "Los administradores de Crown tienen su solicitud y se comunicarán con usted a este correo electrónico. Mientras tanto, su cuenta sigue igual y puede seguir iniciando sesión.",
    notYou: "Si usted no hizo esta solicitud, cambie su contraseña de inmediato y comuníquese con el equipo de soporte de Crown.",
  },
  erasure: {
    subject: "Su cuenta de Crown se borrará el {date}",
    asked: "Usted nos pidió borrar su cuenta de Crown ({email}) y todo lo que guarda sobre usted y sus hijos.",
    grace: "El {date} la borramos: su perfil, los registros de sus hijos, fotos, videos, informes y mensajes. Hasta entonces, iniciar sesión en Crown cancela el borrado.",
    providers: "Un informe que el proveedor de su hijo ya recibió permanece en el expediente médico propio de ese proveedor, según las normas que le corresponden.",
    notYou: "Si usted no hizo esta solicitud, inicie sesión ahora para cancelarla y cambie su contraseña.",
  },
  erasureCancelled: {
    subject: "Su cuenta de Crown no se borrará",
    cancelled: "Usted inició sesión en Crown, así que su cuenta ({email}) no se borrará. No se eliminó nada.",
  },
  dataExport: {
    subject: "Sus datos de Crown están listos para descargar",
    ready: "El archivo con todo lo que Crown guarda sobre usted y sus hijos está listo.",
    once: "El enlace funciona una sola vez, hasta el {until}, y le pide iniciar sesión de nuevo antes de comenzar la descarga.",
    action: "Descargar mis datos",
    notYou: "Si usted no pidió este archivo, cambie su contraseña de inmediato y comuníquese con el equipo de soporte de Crown.",
  },
  support: {
    subject: "Chat sin leer de {who}",
    waiting: "{who} escribió en el chat de soporte y espera una respuesta:",
    action: "Abrir la bandeja de soporte",
    footer: "Bandeja de soporte de Crown. Recibe este correo porque forma parte del equipo de soporte.",
    aUser: "Un usuario",
    aVisitor: "Un visitante",
  },
  chat: {
    oneSubject: "Tiene un mensaje nuevo del equipo de soporte de Crown",
    manySubject: "Tiene {count} mensajes nuevos del equipo de soporte de Crown",
    answered: "El equipo de soporte de Crown le respondió en el chat mientras usted no estaba:",
    openToReply: "Abra Crown para leer la conversación y responder.",
    action: "Abrir el chat",
    oneImage: " [1 imagen]",
    manyImages: " [{count} imágenes]",
    support: "Soporte de Crown",
  },
  report: {
    recaptureSubject: "Tome fotos nuevas de {baby}",
    recaptureLooked:
      "Nuestros revisores vieron las fotos y el video de {baby} y necesitan una captura nueva para medir la cabeza de forma confiable.",
    recaptureWhat: "Qué hay que repetir: {reasons}.",
    recaptureNote: "Nota del revisor: {note}",
    recaptureFollow: "Siga otra vez las instrucciones de captura y suba fotos nuevas y un video corto.",
    recaptureAction: "Subir de nuevo",
    publishedSubject: "El informe de la forma de la cabeza de {baby} está listo",
    publishedReady: "El informe de {baby} ya fue revisado y está listo para descargar.",
    publishedCaution: "Es una herramienta de detección, no un diagnóstico: hable con su médico sobre el resultado.",
    publishedAction: "Ver los resultados",
  },
};
