import type { Catalogue } from "../en.ts";

/** Spanish: consent to improve Crown, the reviewed sets, the model page (ICU syntax). */
export const ES_LEARNING = {
  learning: {
    consents: "Elecciones de consentimiento obtenidas correctamente",
    granted: "Gracias: las fotos revisadas de {name} ya pueden usarse para mejorar Crown.",
    declined: "Su elección se ha guardado: las fotos de {name} no se usarán para mejorar Crown.",
    withdrawn:
      "Consentimiento retirado: las fotos de {name} se eliminaron de todos los conjuntos que aún no se habían usado para un modelo publicado (conjuntos modificados: {sets}), y ningún conjunto nuevo las incluirá. Un modelo ya publicado conserva lo que aprendió.",
    asked: "No volveremos a preguntar; puede elegir en cualquier momento en su perfil.",
    choice: "La elección debe ser granted, declined o withdrawn",
    withdrawOnlyGranted: "No hay ningún consentimiento que retirar para este niño o niña.",
    model: "Cifras del modelo obtenidas correctamente",
    shadowInstalled: "Modelo candidato instalado como modelo en la sombra",
    promoted: "El candidato es ahora el modelo publicado",
    rolledBack: "El modelo anterior vuelve a ser el modelo publicado",
    models: "Modelos instalados obtenidos correctamente",
    noShadow: "No hay ningún modelo candidato instalado como modelo en la sombra.",
    noPrevious: "No hay ningún modelo publicado anterior al que volver.",
    modelFile: "Elija el archivo .onnx del candidato y su model.json.",
    modelCard: "El model.json no se pudo leer como JSON.",
  },
} satisfies Pick<Catalogue, "learning">;
