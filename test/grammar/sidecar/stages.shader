// SYNTAX TEST "source.q3-shader" "shader names, general and stage keywords, texture paths"
models/mapobjects/kt_kubalwagon/euro_frnt_2
// <-- entity.name.function.shader.q3-shader
{
// <- punctuation.section.block.q3-shader
    cull disable
//  ^^^^ keyword.other.general.q3-shader
//       ^^^^^^^ constant.language.q3-shader
    surfaceparm nolightmap
//  ^^^^^^^^^^^ keyword.other.general.q3-shader
    {
//  ^ punctuation.section.stage.q3-shader
        map models/mapobjects/kt_kubalwagon/euro_frnt_2.tga
//      ^^^ keyword.other.stage.image.q3-shader
//          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ string.unquoted.path.texture.q3-shader
        alphaFunc GE128
//      ^^^^^^^^^ keyword.other.stage.q3-shader
//                ^^^^^ constant.language.q3-shader
        blendFunc GL_ONE GL_ONE_MINUS_SRC_ALPHA
//      ^^^^^^^^^ meta.stage.q3-shader keyword.other.stage.q3-shader
//                ^^^^^^ ^^^^^^^^^^^^^^^^^^^^^^ constant.language.q3-shader
    }
    {
        map $lightmap
//          ^^^^^^^^^ constant.language.image.q3-shader
        animMap 10 textures/a.tga textures/b.tga // frames
//      ^^^^^^^ keyword.other.stage.image.q3-shader
//              ^^ constant.numeric.q3-shader
//                 ^^^^^^^^^^^^^^ ^^^^^^^^^^^^^^ string.unquoted.path.texture.q3-shader
//                                               ^^^^^^^^^ comment.line.double-slash.q3-shader
        tcMod scroll 0.5 -1
//      ^^^^^ keyword.other.stage.q3-shader
//                   ^^^ ^^ constant.numeric.q3-shader
    }
}
// <- punctuation.section.block.q3-shader
other { { clampMap "textures/q.tga" } }
// <--- entity.name.function.shader.q3-shader
//        ^^^^^^^^ keyword.other.stage.image.q3-shader
}
// <- invalid.illegal.unbalanced-brace.q3-shader
